"""Hostile input never takes the daemon down for anyone else."""
import os

import pytest


@pytest.fixture
def clients(daemon):
    victim = daemon.connect("ndjson", initialize=False)
    bystander = daemon.connect("lsp")
    return daemon, victim, bystander


def still_serves(daemon, bystander):
    assert daemon.process.poll() is None
    assert "result" in bystander.request("listIndices")


def test_huge_content_length_is_refused_before_the_body(clients):
    daemon, _, bystander = clients
    hostile = daemon.connect("lsp", initialize=False)
    hostile.send_raw(b"Content-Length: 2147483648\r\n\r\n")
    reply = hostile.receive()
    assert reply["error"]["code"] == -32600
    assert "2147483648" in reply["error"]["message"]
    still_serves(daemon, bystander)


def test_deeply_nested_array(clients):
    daemon, victim, bystander = clients
    victim.send_raw(b"[" * 100_000 + b"]" * 100_000 + b"\n")
    reply = victim.receive()
    assert reply["error"]["code"] == -32700
    assert "nesting" in reply["error"]["message"]
    still_serves(daemon, bystander)
    victim.initialize()  # the connection itself is still usable


def test_invalid_utf8(clients):
    daemon, victim, bystander = clients
    victim.send_raw(b'{"jsonrpc":"2.0","id":1,"method":"\xff\xfe"}\n')
    reply = victim.receive()
    assert reply["error"]["code"] == -32700
    assert "UTF-8" in reply["error"]["message"]
    still_serves(daemon, bystander)


def test_frame_cut_by_eof(clients):
    daemon, _, bystander = clients
    cut = daemon.connect("lsp", initialize=False)
    cut.send_raw(b'Content-Length: 100\r\n\r\n{"jsonrpc":"2.0"')
    cut.socket.shutdown(2)
    cut.close()
    still_serves(daemon, bystander)


def test_garbage_header(clients):
    daemon, _, bystander = clients
    garbage = daemon.connect("lsp", initialize=False)
    garbage.send_raw(b"Content-Length: nope\r\n\r\n")
    reply = garbage.receive()
    assert reply["error"]["code"] == -32700
    still_serves(daemon, bystander)


def test_frames_split_into_single_bytes_and_many_per_write(daemon):
    client = daemon.connect("lsp", initialize=False)
    frame = b'Content-Length: 46\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"initialize"}'
    for byte in frame:
        client.send_raw(bytes([byte]))
    assert client.receive()["id"] == 1
    many = b"".join(
        b'Content-Length: %d\r\n\r\n%s' % (len(body), body)
        for body in (b'{"jsonrpc":"2.0","id":%d,"method":"listIndices"}' % i for i in range(2, 52))
    )
    client.send_raw(many)
    ids = sorted(client.receive()["id"] for _ in range(50))
    assert ids == list(range(2, 52))


def test_oversized_message_is_skipped_and_the_stream_stays_in_sync(data_dir, framing):
    from harness import StdioDaemon
    daemon = StdioDaemon(data_dir, framing, extra=["--max-message-size", "2048"])
    try:
        daemon.peer.initialize()
        big = {"jsonrpc": "2.0", "id": 99, "method": "search", "params": {"index": "x", "query": "a" * 4000}}
        daemon.peer.send(big)
        reply = daemon.peer.receive()
        assert reply["error"]["code"] == -32600
        assert "2048" in reply["error"]["message"]
        assert "result" in daemon.peer.request("listIndices")
    finally:
        daemon.kill()


def test_stdio_nesting_bomb_keeps_serving(stdio):
    stdio.peer.initialize()
    stdio.peer.send(b"[" * 100_000 + b"]" * 100_000)
    assert stdio.peer.receive()["error"]["code"] == -32700
    assert "result" in stdio.peer.request("listIndices")
