"""Many clients on one daemon, and a client that never reads."""
import os
import resource
import threading
import time

from harness import StdioDaemon


def test_many_clients_at_once(daemon):
    errors = []

    def client(number):
        try:
            peer = daemon.connect("lsp" if number % 2 else "ndjson")
            for i in range(30):
                reply = peer.request("listIndices")
                assert "result" in reply, reply
            peer.close()
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors


def test_a_client_that_never_reads_does_not_block_the_others(daemon):
    writer = daemon.connect()
    records = [{"objectID": str(i), "text": "lorem ipsum " * 400 + str(i)} for i in range(50)]
    assert "result" in writer.request("saveObjects", {"index": "big", "objects": records})

    stalled = daemon.connect()
    stalled.socket.setsockopt(__import__("socket").SOL_SOCKET, __import__("socket").SO_RCVBUF, 4096)
    request = b'{"jsonrpc":"2.0","id":%d,"method":"search","params":{"index":"big","query":"lorem","hitsPerPage":50}}\n'
    flood = b"".join(request % i for i in range(400))  # ~400 replies of ~500 KB, never read
    sender = threading.Thread(target=lambda: stalled.send_raw(flood), daemon=True)
    sender.start()

    a, b = daemon.connect("lsp"), daemon.connect("ndjson")
    for _ in range(50):
        for peer in (a, b):
            reply = peer.request("search", {"index": "big", "query": "ipsum 7", "hitsPerPage": 1}, timeout=10)
            assert reply["result"]["nbHits"] >= 1
    assert daemon.process.poll() is None


def test_listen_lets_a_socket_client_join_a_stdio_daemon(data_dir, short_tmp):
    path = os.path.join(short_tmp, "join.sock")
    daemon = StdioDaemon(data_dir, "lsp", extra=["--listen", path])
    try:
        daemon.peer.initialize()
        daemon.peer.result("saveObjects", {"index": "notes", "objects": [{"objectID": "1", "title": "shared"}]})
        deadline = time.monotonic() + 10
        while not os.path.exists(path) and time.monotonic() < deadline:
            time.sleep(0.02)
        from harness import SocketDaemon
        joiner = SocketDaemon.__new__(SocketDaemon)
        joiner.path = path
        script = joiner.connect("ndjson")
        assert script.result("search", {"index": "notes", "query": "shar"})["nbHits"] == 1
        script.notify("exit")
        assert "result" in daemon.peer.request("listIndices"), "a socket client's exit leaves stdio alone"
        daemon.peer.result("shutdown")
        daemon.peer.notify("exit")
        assert daemon.wait() == 0
        assert not os.path.exists(path)
    finally:
        daemon.kill()
