"""A forwarder hands its stdout to the owner, which writes replies and pushes straight to the
frontend and acknowledges each reply on the socket, so that if it dies the forwarder knows which
requests are still owed (and no answered request is answered twice)."""
import os
import signal
import time

import pytest

from harness import TIMEOUT, StdioDaemon
from test_spawners import stop_background_daemon, wait_for_results


@pytest.fixture
def owner_and_forwarder(data_dir, framing):
    """An owner on stdio, then a forwarder in `framing` on its data directory."""
    owner = StdioDaemon(data_dir, "ndjson")
    assert owner.peer.initialize()["daemon"]["pid"] == owner.process.pid
    forwarder = StdioDaemon(data_dir, framing)
    assert forwarder.peer.initialize()["daemon"]["pid"] == owner.process.pid
    yield owner, forwarder
    for daemon in (forwarder, owner):
        daemon.kill()
    stop_background_daemon(data_dir)


def holds_pipe(pid, fd_of_other_end):
    """Whether process `pid` has a descriptor on the pipe whose other end is `fd_of_other_end`."""
    target = "pipe:[%d]" % os.fstat(fd_of_other_end).st_ino
    folder = "/proc/%d/fd" % pid
    return any(os.readlink(os.path.join(folder, name)) == target for name in os.listdir(folder))


def replies_until(peer, request_id):
    """Every reply the peer reads up to and including the one to `request_id`."""
    seen = []
    while True:
        message = peer.receive(TIMEOUT)
        assert message is not None, f"no reply to request {request_id}; saw {seen}"
        if "method" in message:
            peer.notifications.append(message)
            continue
        seen.append(message)
        if message.get("id") == request_id:
            return seen


def test_the_owner_writes_to_the_forwarders_frontend_itself(owner_and_forwarder):
    owner, forwarder = owner_and_forwarder
    assert holds_pipe(owner.process.pid, forwarder.process.stdout.fileno()), "the owner holds the frontend's stdout"
    assert not holds_pipe(owner.process.pid, forwarder.process.stdin.fileno()), "requests still go through the forwarder"
    peer = forwarder.peer
    peer.result("saveObjects", {"index": "films", "objects": [{"objectID": "1", "title": "Solaris"}]})
    assert peer.result("search", {"index": "films", "query": "sola"})["nbHits"] == 1
    peer.result("openSession", {"session": "s", "searchers": [{"type": "hits", "index": "films"}]})
    version = owner.peer.result("setQuery", {"session": "s", "query": "solaris"})["stateVersion"]
    assert wait_for_results(peer, version)["results"][0]["nbHits"] == 1, "pushes reach the frontend too"
    assert peer.request("shutdown")["result"] is None
    peer.notify("exit")
    assert forwarder.wait() == 0
    assert owner.peer.result("listIndices")["items"][0]["name"] == "films", "the owner serves on"


def test_a_framing_error_is_answered_by_the_owner_in_the_frontends_framing(owner_and_forwarder, framing):
    _, forwarder = owner_and_forwarder
    peer = forwarder.peer
    if framing == "lsp":
        peer.send_raw(b"Content-Length: many\r\n\r\n")
    else:
        peer.send_raw(b"{" + b" " * (65 << 20) + b"\n")
    error = peer.receive(TIMEOUT)
    expected = -32700 if framing == "lsp" else -32600  # an invalid header; a line over the size limit
    assert error is not None and error["id"] is None and error["error"]["code"] == expected, error
    assert peer.result("listIndices")["items"] == [], "the conversation goes on"


def test_after_the_owner_dies_no_answered_request_is_answered_again(owner_and_forwarder):
    owner, forwarder = owner_and_forwarder
    peer = forwarder.peer
    peer.result("saveObjects", {"index": "notes", "objects": [{"objectID": str(n), "text": f"note {n}"} for n in range(20)]})
    for _ in range(30):
        assert peer.result("search", {"index": "notes", "query": "note"})["nbHits"] == 20
    batch = [{"jsonrpc": "2.0", "id": 900 + n, "method": "search", "params": {"index": "notes", "query": str(n)}}
             for n in range(3)]
    peer.send(batch)
    answered = peer.receive(TIMEOUT)
    assert sorted(reply["id"] for reply in answered) == [900, 901, 902]
    # The owner acknowledges a reply just after writing it: one that dies in between has its last reply
    # also answered with a retry error. Here it dies well after.
    time.sleep(0.2)

    owner.process.send_signal(signal.SIGKILL)
    owner.process.wait(timeout=TIMEOUT)

    request_id = peer.next_id
    peer.next_id += 1
    peer.send({"jsonrpc": "2.0", "id": request_id, "method": "search", "params": {"index": "notes", "query": "note"}})
    seen = replies_until(peer, request_id)
    assert [reply["id"] for reply in seen] == [request_id], f"answered requests were answered again: {seen}"
    assert seen[-1]["result"]["nbHits"] == 20, "the next owner answers from the records on disk"
    assert peer.request("shutdown")["result"] is None
    peer.notify("exit")
    assert forwarder.wait() == 0
