"""One daemon per data directory, any number of spawners: a second `quarry serve` on stdio
for a data directory another process owns forwards to that owner, so editors (and
`Client.spawn()`) share indices and sessions; when the owner goes away, the forwarder's
frontend keeps working."""
import fcntl
import json
import os
import signal
import subprocess
import time

import pytest

from harness import TIMEOUT, StdioDaemon, quarry_binary


def stop_background_daemon(data_dir):
    """A forwarder whose owner died starts a background daemon on the data directory: stop it, and wait
    until it has let go of the directory (so the temporary directory can be removed)."""
    subprocess.run([quarry_binary(), "stop", "--socket", os.path.join(data_dir, "quarry.sock")],
                   capture_output=True, timeout=20, stdin=subprocess.DEVNULL)
    lock_path = os.path.join(data_dir, "LOCK")
    deadline = time.monotonic() + TIMEOUT
    while os.path.exists(lock_path) and time.monotonic() < deadline:
        with open(lock_path, "a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except OSError:
                time.sleep(0.05)


def wait_for_results(peer, version):
    deadline = time.monotonic() + TIMEOUT
    while True:
        for message in peer.notifications:
            if message.get("method") == "resultsUpdated" and message["params"]["stateVersion"] == version:
                return message["params"]
        message = peer.receive(max(0.0, deadline - time.monotonic()))
        assert message is not None, f"no resultsUpdated for version {version}"
        peer.notifications.append(message)


@pytest.fixture
def spawners(data_dir, framing):
    """Two `quarry serve` processes started at once on one data directory."""
    first = StdioDaemon(data_dir, framing)
    second = StdioDaemon(data_dir, "ndjson" if framing == "lsp" else "lsp")
    yield first, second
    # Both at once: a forwarder that outlived its owner would start a background daemon on the directory.
    for daemon in (first, second):
        if daemon.process.poll() is None:
            daemon.process.kill()
    for daemon in (first, second):
        daemon.process.wait()
    stop_background_daemon(data_dir)


def test_two_spawners_share_one_daemon_its_records_and_its_sessions(spawners, data_dir):
    first, second = spawners
    a, b = first.peer, second.peer
    owner, joined = a.initialize()["daemon"], b.initialize()["daemon"]
    assert owner == joined, "both answered by one daemon"
    assert owner["pid"] in (first.process.pid, second.process.pid)
    assert owner["dataDirectory"] == data_dir
    assert os.path.join(data_dir, "quarry.sock") in owner["sockets"]

    a.result("saveObjects", {"index": "people", "objects": [{"objectID": "1", "name": "George Clooney"}]})
    assert b.result("search", {"index": "people", "query": "cloney"})["nbHits"] == 1
    # Pretty-printed JSON (raw newlines between tokens) in Content-Length framing, through either process.
    lsp = a if a.framing == "lsp" else b
    body = json.dumps({"jsonrpc": "2.0", "id": 99, "method": "search",
                       "params": {"index": "people", "query": "george\nclooney"}}, indent=2).encode()
    lsp.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    assert lsp.reply_to(99)["result"]["nbHits"] == 1

    a.result("openSession", {"session": "shared", "searchers": [{"type": "hits", "index": "people"}]})
    b.result("openSession", {"session": "shared"})
    version = b.result("setQuery", {"session": "shared", "query": "geor"})["stateVersion"]
    assert wait_for_results(a, version)["results"][0]["nbHits"] == 1, "a change by one is pushed to the other"

    for peer, daemon in ((b, second), (a, first)):
        assert peer.request("shutdown")["result"] is None
        peer.notify("exit")
        assert daemon.process.wait(timeout=TIMEOUT) == 0


def test_killing_the_owner_leaves_the_forwarders_frontend_working(spawners, data_dir):
    first, second = spawners
    owner_pid = first.peer.initialize()["daemon"]["pid"]
    second.peer.initialize()
    if owner_pid != first.process.pid:  # the second process won the race for the directory: swap roles
        first, second = second, first
    b = second.peer
    b.result("saveObjects", {"index": "notes", "objects": [{"objectID": str(n), "text": f"note {n}"} for n in range(50)]})
    b.result("openSession", {"session": "mine", "searchers": [{"type": "hits", "index": "notes"}]})

    first.process.send_signal(signal.SIGKILL)
    first.process.wait(timeout=TIMEOUT)

    failures = 0
    for _ in range(3):
        reply = b.request("search", {"index": "notes", "query": "note"})
        if "error" in reply:
            assert reply["error"]["data"]["retry"] is True, reply
            failures += 1
        else:
            assert reply["result"]["nbHits"] == 50, "the records survived on disk"
    assert failures <= 1
    version = b.result("setQuery", {"session": "mine", "query": "note 7"})["stateVersion"]
    assert wait_for_results(b, version)["results"][0]["nbHits"] >= 1, "the session was reopened on the new owner"
    assert b.request("shutdown")["result"] is None
    b.notify("exit")
    assert second.process.wait(timeout=TIMEOUT) == 0


def test_a_second_socket_daemon_on_an_owned_directory_is_refused_naming_the_owner(spawners, data_dir, short_tmp):
    first, _ = spawners
    first.peer.initialize()
    done = subprocess.run([quarry_binary(), "serve", "--socket", os.path.join(short_tmp, "other.sock"),
                           "--data-dir", data_dir], capture_output=True, timeout=20, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert os.path.join(data_dir, "quarry.sock") in done.stderr.decode()


def test_quarry_connect_with_a_data_dir_joins_its_owner(spawners, data_dir):
    first, _ = spawners
    first.peer.initialize()
    first.peer.result("saveObjects", {"index": "x", "objects": [{"objectID": "1", "v": "shared"}]})
    request = b'{"jsonrpc":"2.0","id":1,"method":"initialize"}\n{"jsonrpc":"2.0","id":2,"method":"getObjects","params":{"index":"x","objectIDs":["1"]}}\n'
    done = subprocess.run([quarry_binary(), "connect", "--data-dir", data_dir], input=request, capture_output=True,
                          timeout=20)
    assert b'"v":"shared"' in done.stdout, done.stderr


def test_a_request_in_flight_when_the_owner_dies_fails_once_and_says_to_retry(spawners, data_dir, short_tmp):
    first, second = spawners
    owner_pid = first.peer.initialize()["daemon"]["pid"]
    second.peer.initialize()
    if owner_pid != first.process.pid:
        first, second = second, first
    b = second.peer
    path = os.path.join(short_tmp, "rows.ndjson")
    with open(path, "w") as f:
        f.writelines('{"objectID":"%d","text":"row %d"}\n' % (n, n) for n in range(300000))
    import_id = b.next_id
    b.send({"jsonrpc": "2.0", "id": import_id, "method": "importFile", "params": {"index": "rows", "path": path}})
    b.next_id += 1
    time.sleep(0.3)  # the import is under way in the owner
    first.process.send_signal(signal.SIGKILL)
    first.process.wait(timeout=TIMEOUT)
    reply = b.reply_to(import_id, timeout=60)
    if "error" in reply:
        assert reply["error"]["code"] == -32803 and reply["error"]["data"] == {"retry": True}, reply
        assert "send it again" in reply["error"]["message"]
    assert "result" in b.request("listIndices"), "the next request is answered by the new owner"
    b.request("shutdown")
    b.notify("exit")
    assert second.process.wait(timeout=TIMEOUT) == 0
