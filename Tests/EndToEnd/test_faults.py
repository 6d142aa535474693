"""Faults a daemon meets in the field, through the real binary: a full disk,
kill -9 at several points of an import, damaged files on disk, and the
open-file limit. Each must end in a clear error or a correct answer, never in
lost acknowledged data, a wrong answer or a dead daemon."""
import glob
import json
import os
import resource
import signal
import sqlite3
import socket
import subprocess
import time

import pytest

from harness import SocketDaemon, write_ndjson

DISK_FULL, STORAGE_FAILURE, RESOURCE_LIMIT = -32010, -32011, -32012


def records(prefix, count, size=400):
    filler = "lorem ipsum dolor sit amet " * (size // 27)
    return [{"objectID": f"{prefix}-{i}", "name": f"{prefix} item {i}", "text": filler} for i in range(count)]


def count(client, index):
    return client.result("search", {"index": index, "query": "", "hitsPerPage": 0})["nbHits"]


# --- A full disk ----------------------------------------------------------------------------------

@pytest.fixture
def small_disk(short_tmp):
    """A 24 MiB tmpfs to hold the data directory, or a skip saying why there is none."""
    path = os.path.join(short_tmp, "disk")
    os.mkdir(path)
    try:
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", path], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as error:
        detail = getattr(error, "stderr", b"") or str(error)
        pytest.skip(f"the disk-full tests need to mount a small tmpfs (root and mount(8)); here: {detail!r}")
    yield path
    subprocess.run(["umount", "-l", path], capture_output=True)


def fill(directory):
    """Fills the file system holding `directory`; returns the filler's path."""
    path = os.path.join(directory, "filler")
    chunk = b"\0" * (256 << 10)
    with open(path, "wb", buffering=0) as f:
        try:
            while True:
                f.write(chunk)
        except OSError:
            pass
        try:
            while True:
                f.write(b"\0" * 512)
        except OSError:
            pass
    return path


def test_disk_full_during_writes_is_its_own_error_and_loses_nothing(short_tmp, small_disk):
    socket_path = os.path.join(short_tmp, "full.sock")
    daemon = SocketDaemon(small_disk, socket_path)
    try:
        client = daemon.connect()
        client.result("saveObjects", {"index": "shop", "objects": records("ack", 200)})
        upload = os.path.join(short_tmp, "upload.ndjson")
        write_ndjson(upload, 20_000)
        filler = fill(small_disk)

        batch = records("late", 2_000)
        reply = client.request("saveObjects", {"index": "shop", "objects": batch})
        assert reply.get("error", {}).get("code") == DISK_FULL, reply
        assert reply["error"]["data"] == {"reason": "diskFull"}
        assert "disk full" in reply["error"]["message"] and "nothing was written" in reply["error"]["message"]

        reply = client.request("importFile", {"index": "shop", "path": upload})
        assert reply.get("error", {}).get("code") == DISK_FULL, reply

        # Reads go on, and see exactly what was acknowledged.
        assert count(client, "shop") == 200
        assert client.result("getObjects", {"index": "shop", "objectIDs": ["ack-7", "late-7"]})["results"][1] is None
        assert client.result("search", {"index": "shop", "query": "ack item 42"})["hits"][0]["objectID"] == "ack-42"

        # Space returns: the same writes succeed, without a restart.
        os.remove(filler)
        client.result("saveObjects", {"index": "shop", "objects": batch})
        assert client.result("importFile", {"index": "shop", "path": upload})["imported"] == 20_000
        assert count(client, "shop") == 22_200
    finally:
        daemon.kill()

    daemon = SocketDaemon(small_disk, socket_path)
    try:
        assert count(daemon.connect(), "shop") == 22_200, "everything acknowledged survives kill -9"
    finally:
        daemon.kill()


def test_disk_full_when_creating_an_index_leaves_no_half_index(short_tmp, small_disk):
    daemon = SocketDaemon(small_disk, os.path.join(short_tmp, "new.sock"))
    try:
        client = daemon.connect()
        client.result("saveObjects", {"index": "kept", "objects": records("k", 10)})
        filler = fill(small_disk)
        reply = client.request("saveObjects", {"index": "fresh", "objects": records("f", 2_000)})
        assert reply.get("error", {}).get("code") == DISK_FULL, reply
        names = [entry["name"] for entry in client.result("listIndices")["items"]]
        assert "fresh" not in names and "kept" in names
        os.remove(filler)
        client.result("saveObjects", {"index": "fresh", "objects": records("f", 2_000)})
        assert count(client, "fresh") == 2_000
    finally:
        daemon.kill()


# --- kill -9 during an import, at several points ---------------------------------------------------

@pytest.mark.parametrize("point", ["as it starts", "a third in", "as the rows are in"])
def test_kill_9_during_an_import_at_any_point_keeps_all_or_nothing(short_tmp, data_dir, point):
    socket_path = os.path.join(short_tmp, "imp.sock")
    daemon = SocketDaemon(data_dir, socket_path)
    client = daemon.connect()
    client.result("saveObjects", {"index": "shop", "objects": records("ack", 100, size=50)})
    big = os.path.join(short_tmp, "big.ndjson")
    write_ndjson(big, 60_000)
    client.send({"jsonrpc": "2.0", "id": "imp", "method": "importFile",
                 "params": {"index": "shop", "path": big, "workDoneToken": "t"}})
    if point != "as it starts":
        while True:
            message = client.receive()
            assert message is not None, "the import must report progress before it ends"
            if message.get("id") == "imp":
                break  # finished before the point: the kill below then follows a complete import
            value = message.get("params", {}).get("value", {}) if message.get("method") == "$/progress" else {}
            if point == "a third in" and value.get("records", 0) >= 20_000:
                break
            if point == "as the rows are in" and value.get("records", 0) >= 60_000:
                break
    os.kill(daemon.process.pid, signal.SIGKILL)
    daemon.process.wait()

    daemon = SocketDaemon(data_dir, socket_path)
    try:
        client = daemon.connect()
        found = count(client, "shop")
        assert found in (100, 60_100), f"all of the import or none of it, not {found}"
        if found == 60_100:
            assert client.result("search", {"index": "shop", "query": "imported product 59999"})["nbHits"] >= 1
        assert client.result("search", {"index": "shop", "query": "ack item 42"})["hits"][0]["objectID"] == "ack-42"
        # The index takes writes again.
        client.result("saveObjects", {"index": "shop", "objects": records("after", 5, size=50)})
        assert count(client, "shop") == found + 5
    finally:
        daemon.kill()


# --- Damaged files ---------------------------------------------------------------------------------

def stopped_with(short_tmp, data_dir, objects):
    socket_path = os.path.join(short_tmp, "dmg.sock")
    daemon = SocketDaemon(data_dir, socket_path)
    client = daemon.connect()
    client.result("saveObjects", {"index": "cat", "objects": objects})
    assert daemon.terminate() == 0
    return socket_path


def test_a_truncated_derived_file_is_rebuilt_and_answers_stay_right(short_tmp, data_dir):
    objects = records("t", 3_000, size=60)
    socket_path = stopped_with(short_tmp, data_dir, objects)
    derived = glob.glob(os.path.join(data_dir, "**", "search.index"), recursive=True)
    assert derived
    with open(derived[0], "r+b") as f:
        f.truncate(os.path.getsize(derived[0]) // 3)
    daemon = SocketDaemon(data_dir, socket_path)
    try:
        client = daemon.connect()
        assert count(client, "cat") == 3_000
        assert client.result("search", {"index": "cat", "query": "t item 2999"})["hits"][0]["objectID"] == "t-2999"
        assert "rebuilt" in daemon.log_text()
    finally:
        daemon.kill()


def test_a_damaged_sqlite_page_gives_a_storage_error_or_the_right_record(short_tmp, data_dir):
    objects = records("s", 3_000, size=200)
    socket_path = stopped_with(short_tmp, data_dir, objects)
    stores = [path for path in glob.glob(os.path.join(data_dir, "**", "*"), recursive=True)
              if os.path.isfile(path) and open(path, "rb").read(16) == b"SQLite format 3\0"]
    assert stores, "the records live in an SQLite file"
    store = max(stores, key=os.path.getsize)
    page = 4096
    pages = os.path.getsize(store) // page
    with open(store, "r+b") as f:
        for victim in (pages // 3, pages // 2, 2 * pages // 3):
            f.seek(victim * page + 100)
            f.write(os.urandom(page - 200))
    by_id = {o["objectID"]: o for o in objects}

    daemon = SocketDaemon(data_dir, socket_path)
    try:
        client = daemon.connect()
        errors = 0
        for start in range(0, 3_000, 500):
            ids = [f"s-{i}" for i in range(start, start + 500)]
            reply = client.request("getObjects", {"index": "cat", "objectIDs": ids})
            if "error" in reply:
                assert reply["error"]["code"] == STORAGE_FAILURE, reply
                errors += 1
                continue
            for wanted, got in zip(ids, reply["result"]["results"]):
                assert got == by_id[wanted], f"a wrong record for {wanted}: {got}"
        for query in ("s item 1000", "s item 1500", "s item 2000", "lorem"):
            reply = client.request("search", {"index": "cat", "query": query, "hitsPerPage": 50})
            if "error" in reply:
                assert reply["error"]["code"] == STORAGE_FAILURE, reply
                errors += 1
                continue
            for hit in reply["result"]["hits"]:
                assert hit["objectID"] in by_id, f"a hit that was never stored: {json.dumps(hit)[:300]}"
                stored = {k: v for k, v in hit.items() if k in by_id[hit["objectID"]]}
                assert stored == by_id[hit["objectID"]], f"a wrong record in a hit: {json.dumps(hit)[:200]}"
        assert errors > 0, "three overwritten pages in the middle of the store went unnoticed"
        assert "result" in client.request("listIndices"), "the daemon keeps serving"
    finally:
        daemon.kill()


# --- The open-file limit ---------------------------------------------------------------------------

def test_at_the_open_file_limit_new_connections_are_refused_cleanly_and_old_ones_served(short_tmp, data_dir):
    limit = 64

    def low_limit():
        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))

    socket_path = os.path.join(short_tmp, "fd.sock")
    daemon = SocketDaemon(data_dir, socket_path, preexec_fn=low_limit)
    extra = []
    try:
        first = daemon.connect()
        first.result("saveObjects", {"index": "shop", "objects": records("fd", 50, size=50)})
        upload = os.path.join(short_tmp, "fd.ndjson")
        write_ndjson(upload, 100)
        answered = refused = 0
        for _ in range(2 * limit):
            sock = socket.socket(socket.AF_UNIX)
            extra.append(sock)
            sock.settimeout(5)
            try:
                # A refused connection may be closed before the request is even written.
                sock.connect(socket_path)
                sock.sendall(b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}\n')
                data = sock.recv(1 << 16)
            except (socket.timeout, ConnectionResetError, BrokenPipeError, BlockingIOError):
                data = b""
            if data:
                answered += 1
            else:
                refused += 1
        assert answered > 0 and refused > 0, (answered, refused)

        # At the limit: the connections already open are served, and the files
        # the engine needs (a new reader, the file to import) are still there,
        # because the daemon keeps the last descriptors for itself.
        assert first.result("search", {"index": "shop", "query": "fd item 7"})["hits"][0]["objectID"] == "fd-7"
        assert first.result("importFile", {"index": "shop", "path": upload})["imported"] == 100
        assert "too many open files" in daemon.log_text().lower()

        for sock in extra:
            sock.close()
        extra.clear()
        # The daemon lets go of the closed connections as it reads their end.
        deadline = time.monotonic() + 5
        while True:
            try:
                fresh = daemon.connect()
                break
            except (OSError, AssertionError):
                assert time.monotonic() < deadline, "new connections are served again once others close"
                time.sleep(0.05)
        assert count(fresh, "shop") == 150
    finally:
        for sock in extra:
            sock.close()
        daemon.kill()


# --- kill -9 during a stream of batches, and while merges are due ---------------------------------

def test_kill_9_during_a_stream_of_batches_keeps_every_acknowledged_record(short_tmp, data_dir):
    socket_path = os.path.join(short_tmp, "stream.sock")
    daemon = SocketDaemon(data_dir, socket_path)
    client = daemon.connect()
    acknowledged = 0
    # Batches of 1,000 sent as a client streams them: the next one goes out as soon as the last is acknowledged.
    for batch in range(40):
        client.send({"jsonrpc": "2.0", "id": batch, "method": "saveObjects",
                     "params": {"index": "shop", "objects": records(f"b{batch}", 1_000, size=60)}})
        if batch == 12:
            break  # killed with this batch in flight
        while True:
            message = client.receive()
            assert message is not None and "error" not in message, message
            if message.get("id") == batch:
                acknowledged += 1
                break
    os.kill(daemon.process.pid, signal.SIGKILL)
    daemon.process.wait()

    daemon = SocketDaemon(data_dir, socket_path)
    try:
        client = daemon.connect()
        found = count(client, "shop")
        assert found in (acknowledged * 1_000, (acknowledged + 1) * 1_000), f"whole batches only, not {found}"
        for batch in range(acknowledged):
            ids = [f"b{batch}-{i}" for i in range(1_000)]
            got = client.result("getObjects", {"index": "shop", "objectIDs": ids})["results"]
            assert all(r is not None and r["objectID"] == i for r, i in zip(got, ids)), f"batch {batch} lost records"
        assert client.result("search", {"index": "shop", "query": "b11 item 999"})["hits"][0]["objectID"] == "b11-999"
        client.result("saveObjects", {"index": "shop", "objects": records("after", 5, size=50)})
        assert count(client, "shop") == found + 5
    finally:
        daemon.kill()


@pytest.mark.parametrize("delay", [0.9, 1.3, 2.0])
def test_kill_9_while_a_merge_is_due_leaves_a_consistent_index(short_tmp, data_dir, delay):
    # Most of the records deleted: the next save (a second after the last write) merges the segments.
    socket_path = os.path.join(short_tmp, "merge.sock")
    daemon = SocketDaemon(data_dir, socket_path)
    client = daemon.connect()
    for batch in range(6):
        client.result("saveObjects", {"index": "shop", "objects": records(f"m{batch}", 2_000, size=60)})
    gone = [f"m{batch}-{i}" for batch in range(5) for i in range(2_000)]
    client.result("deleteObjects", {"index": "shop", "objectIDs": gone})
    time.sleep(delay)
    os.kill(daemon.process.pid, signal.SIGKILL)
    daemon.process.wait()

    daemon = SocketDaemon(data_dir, socket_path)
    try:
        client = daemon.connect()
        assert count(client, "shop") == 2_000
        assert client.result("search", {"index": "shop", "query": "m0 item 7"})["nbHits"] == 0
        assert client.result("search", {"index": "shop", "query": "m5 item 1999"})["hits"][0]["objectID"] == "m5-1999"
        got = client.result("getObjects", {"index": "shop", "objectIDs": ["m5-0", "m4-0"]})["results"]
        assert got[0]["objectID"] == "m5-0" and got[1] is None
        client.result("saveObjects", {"index": "shop", "objects": records("after", 5, size=50)})
        assert count(client, "shop") == 2_005
    finally:
        daemon.kill()


# --- kill -9 during a record compaction ------------------------------------------------------------

def format_1_store(data_dir, count):
    """An index as format 1 stored it (every record as JSON text, no dictionary, no auto-vacuum), with
    no search file: opening it rebuilds the search index and starts the record compaction."""
    folder = os.path.join(data_dir, "indices", "old")
    os.makedirs(folder)
    words = ["amber", "birch", "cedar", "delta", "ember", "fjord", "garnet", "harbor", "ivory", "juniper", "kelp", "lumen"]
    objects = [{"objectID": f"o-{i}", "name": f"{words[i % 12]} {words[i * 7 % 12]} {i}",
                "description": " ".join(words[(i * k + k) % 12] for k in range(60)), "price": i % 300}
               for i in range(count)]
    path = os.path.join(folder, "records.sqlite")
    with sqlite3.connect(path) as connection:
        connection.executescript("""
            PRAGMA journal_mode=WAL;
            CREATE TABLE records(docID INTEGER PRIMARY KEY, objectID TEXT NOT NULL UNIQUE, body TEXT NOT NULL);
            CREATE TABLE meta(key TEXT PRIMARY KEY, value) WITHOUT ROWID;
            INSERT INTO meta VALUES('schemaVersion', 1), ('name', 'old'), ('generation', 1), ('createdAt', 1), ('updatedAt', 1);
            """)
        connection.executemany("INSERT INTO records(objectID, body) VALUES(?, ?)",
                               [(o["objectID"], json.dumps(o, separators=(",", ":"))) for o in objects])
    connection.close()
    return path, objects


def row_kinds(path):
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
        kinds = dict(connection.execute("SELECT typeof(body), count(*) FROM records GROUP BY 1").fetchall())
    connection.close()
    return kinds


def test_kill_9_during_a_record_compaction_keeps_every_record(short_tmp, data_dir):
    path, objects = format_1_store(data_dir, 60_000)
    size_before = os.path.getsize(path)
    socket_path = os.path.join(short_tmp, "cmp.sock")
    # Opening builds the search index of 60,000 records before the daemon listens: more than the usual wait.
    daemon = SocketDaemon(data_dir, socket_path, wait=False)
    try:
        deadline = time.time() + 120
        while row_kinds(path).get("blob", 0) < 5_000 and time.time() < deadline:
            time.sleep(0.01)
    finally:
        os.kill(daemon.process.pid, signal.SIGKILL)
        daemon.process.wait()
    kinds = row_kinds(path)
    assert 0 < kinds.get("blob", 0) < 60_000, f"killed in the middle of the compaction: {kinds}"

    by_id = {o["objectID"]: o for o in objects}
    daemon = SocketDaemon(data_dir, socket_path, wait=False)
    try:
        daemon.wait_until_listening(timeout=180)
        client = daemon.connect()
        assert count(client, "old") == 60_000
        for start in range(0, 60_000, 2_000):
            ids = [f"o-{i}" for i in range(start, start + 2_000)]
            got = client.result("getObjects", {"index": "old", "objectIDs": ids})["results"]
            assert got == [by_id[i] for i in ids], f"records {start}..{start + 2_000} are as stored"
        assert client.result("search", {"index": "old", "query": "amber 59988"})["hits"][0]["objectID"] == "o-59988"
        # The compaction resumes where it stopped, finishes, and gives the space back.
        deadline = time.time() + 120
        while row_kinds(path) != {"blob": 60_000} and time.time() < deadline:
            time.sleep(0.1)
        assert row_kinds(path) == {"blob": 60_000}
        while os.path.getsize(path) > size_before / 2 and time.time() < deadline:
            time.sleep(0.1)
        assert os.path.getsize(path) < size_before / 2, (os.path.getsize(path), size_before)
        got = client.result("getObjects", {"index": "old", "objectIDs": ["o-0", "o-30000", "o-59999"]})["results"]
        assert got == [by_id["o-0"], by_id["o-30000"], by_id["o-59999"]]
        client.result("saveObjects", {"index": "old", "objects": [{"objectID": "new", "name": "after"}]})
        assert count(client, "old") == 60_001
    finally:
        daemon.kill()
