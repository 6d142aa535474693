"""Durability of the embedded engine through the real daemon: kill -9 in the
middle of writes and imports, and restarts that reuse the derived files."""
import glob
import os
import signal
import socket
import threading
import time

from harness import SocketDaemon, write_ndjson


def restart(data_dir, path):
    return SocketDaemon(data_dir, path)


def test_kill_9_during_an_import_leaves_it_all_or_nothing(short_tmp, data_dir):
    path = os.path.join(short_tmp, "k.sock")
    daemon = SocketDaemon(data_dir, path)
    client = daemon.connect()
    acknowledged = [{"objectID": f"ack-{i}", "name": f"acknowledged {i}"} for i in range(100)]
    client.result("saveObjects", {"index": "shop", "objects": acknowledged})
    big = os.path.join(short_tmp, "big.ndjson")
    write_ndjson(big, 200_000)
    client.send({"jsonrpc": "2.0", "id": "imp", "method": "importFile",
                 "params": {"index": "shop", "path": big, "workDoneToken": "t"}})
    while True:
        message = client.receive()
        assert message is not None, "the import must report progress before it ends"
        if message.get("method") == "$/progress" and message["params"]["value"].get("records", 0) > 20_000:
            break
    os.kill(daemon.process.pid, signal.SIGKILL)
    daemon.process.wait()

    daemon = restart(data_dir, path)
    try:
        client = daemon.connect()
        found = client.result("search", {"index": "shop", "query": "", "hitsPerPage": 1})
        assert found["nbHits"] == 100, "only the acknowledged records, none of the killed import"
        assert client.result("search", {"index": "shop", "query": "acknowledged 42"})["nbHits"] >= 1
    finally:
        daemon.kill()


def test_kill_9_during_a_stream_of_writes_keeps_every_acknowledged_batch(short_tmp, data_dir):
    path = os.path.join(short_tmp, "w.sock")
    daemon = SocketDaemon(data_dir, path)
    client = daemon.connect()
    batch_size = 50
    acknowledged = []
    stop = threading.Event()

    def writer():
        batch = 0
        while not stop.is_set():
            objects = [{"objectID": f"b{batch}-{i}", "name": f"batch {batch} item {i}"} for i in range(batch_size)]
            try:
                reply = client.request("saveObjects", {"index": "stream", "objects": objects}, timeout=5)
            except (AssertionError, OSError):
                return
            if "result" in reply:
                acknowledged.append(batch)
            batch += 1

    thread = threading.Thread(target=writer)
    thread.start()
    while len(acknowledged) < 20:
        time.sleep(0.01)
    os.kill(daemon.process.pid, signal.SIGKILL)
    daemon.process.wait()
    stop.set()
    thread.join(10)

    daemon = restart(data_dir, path)
    try:
        client = daemon.connect()
        total = client.result("search", {"index": "stream", "query": "", "hitsPerPage": 1})["nbHits"]
        assert total in (len(acknowledged) * batch_size, (len(acknowledged) + 1) * batch_size), \
            "every acknowledged batch, plus at most the one in flight, whole"
        for batch in acknowledged[:: max(1, len(acknowledged) // 10)]:
            hit = client.result("search", {"index": "stream", "query": f"batch {batch} item 7"})
            assert any(h["objectID"] == f"b{batch}-7" for h in hit["hits"])
    finally:
        daemon.kill()


def test_restart_reuses_the_derived_index_and_rebuilds_a_corrupt_one(short_tmp, data_dir):
    path = os.path.join(short_tmp, "r.sock")
    daemon = SocketDaemon(data_dir, path)
    client = daemon.connect()
    records = os.path.join(short_tmp, "r.ndjson")
    write_ndjson(records, 5_000)
    assert client.result("importFile", {"index": "cat", "path": records})["imported"] == 5_000
    assert daemon.terminate() == 0  # a clean stop saves the derived files

    derived = glob.glob(os.path.join(data_dir, "**", "search.index"), recursive=True)
    assert derived, "a derived search index file is kept on disk"
    daemon = restart(data_dir, path)
    try:
        client = daemon.connect()
        assert client.result("search", {"index": "cat", "query": "imported product 4999"})["nbHits"] >= 1
        assert "rebuilt" not in daemon.log_text(), "a clean restart must not re-index"
    finally:
        daemon.terminate()

    with open(derived[0], "r+b") as f:
        f.seek(os.path.getsize(derived[0]) // 2)
        f.write(b"\x00corrupt\xff" * 8)
    daemon = restart(data_dir, path)
    try:
        client = daemon.connect()
        assert client.result("search", {"index": "cat", "query": "product 123"})["nbHits"] >= 1
        assert "rebuilt" in daemon.log_text(), "a corrupt derived file is rebuilt, with a log line"
    finally:
        daemon.kill()
