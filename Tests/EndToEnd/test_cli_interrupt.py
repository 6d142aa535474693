"""Interrupting a long CLI command, and a client that vanishes mid-write.

1. Ctrl-C in a terminal during `quarry import` (or a long `quarry call`) cancels the request: the client
   waits for the rollback, says the index is unchanged and exits 130 (SIGTERM: 143), and the index keeps
   its records.
2. A `quarry import` killed with SIGKILL mid-import leaves the index unchanged: the daemon cancels the
   requests of a client that closed its socket.
3. A client that only shuts down its write side after its requests still gets every reply, and its
   import commits (protocol/README.md, "Cancellation").
"""
import os
import pty
import re
import select
import signal
import socket
import time

import pytest

from harness import quarry_binary, write_ndjson

KEPT = 300
# Big enough that the import is still running when the first progress report is seen, at debug speed
# and on either backend; the tests wait for that report, not for a time.
RECORDS = 300_000
GUARD_SECONDS = 120  # only against a hang


def seed(daemon, short_tmp):
    client = daemon.connect()
    client.result("saveObjects", {"index": "products",
                                  "objects": [{"objectID": f"keep-{i}", "name": "kept"} for i in range(KEPT)]})
    path = os.path.join(short_tmp, "big.ndjson")
    write_ndjson(path, RECORDS)
    return client, path


def spawn_in_terminal(*args):
    """The CLI on a new pseudo-terminal, as its controlling terminal and foreground process."""
    pid, master = pty.fork()
    if pid == 0:
        try:
            os.execv(quarry_binary(), [quarry_binary(), *args])
        finally:
            os._exit(127)
    return pid, master


def read_terminal(master, until=None):
    """What the terminal shows, up to the first match of `until`, else to the end of output."""
    text = ""
    deadline = time.monotonic() + GUARD_SECONDS
    while time.monotonic() < deadline:
        if until is not None and re.search(until, text):
            return text
        ready, _, _ = select.select([master], [], [], 1)
        if not ready:
            continue
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the terminal's last process exited
            data = b""
        if not data:
            assert until is None, f"the command ended before {until!r}: {text}"
            return text
        text += data.decode(errors="replace")
    raise AssertionError(f"no {until!r} within {GUARD_SECONDS} s: {text}")


# The progress bar once records are being read: the import is in flight.
IN_FLIGHT = r"%  [1-9][0-9]* records"


def count(client):
    """The index's records once every write sent to it so far has finished: a write to the same index
    waits for them (protocol/README.md, "Ordering guarantees" 4)."""
    client.result("saveObjects", {"index": "products", "objects": [{"objectID": "marker", "name": "marker"}]},
                  timeout=GUARD_SECONDS)
    return client.result("search", {"index": "products", "query": ""})["nbHits"] - 1


@pytest.mark.parametrize("interrupt, code", [("ctrl-c", 130), ("sigterm", 143)])
def test_interrupting_an_import_cancels_it_and_leaves_the_index_unchanged(daemon, short_tmp, interrupt, code):
    client, path = seed(daemon, short_tmp)
    pid, master = spawn_in_terminal("import", "products", path, "--socket", daemon.path)
    shown = read_terminal(master, until=IN_FLIGHT)
    if interrupt == "ctrl-c":
        os.write(master, b"\x03")
    else:
        os.kill(pid, signal.SIGTERM)
    shown += read_terminal(master)
    _, status = os.waitpid(pid, 0)
    os.close(master)
    assert os.waitstatus_to_exitcode(status) == code, shown
    assert "interrupted; the import was cancelled and rolled back; index 'products' is unchanged" in shown, shown
    assert "imported" not in shown.replace("import was", ""), shown
    assert count(client) == KEPT


def test_a_killed_import_client_leaves_the_index_unchanged(daemon, short_tmp):
    client, path = seed(daemon, short_tmp)
    pid, master = spawn_in_terminal("import", "products", path, "--socket", daemon.path)
    read_terminal(master, until=IN_FLIGHT)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    os.close(master)
    assert count(client) == KEPT, "an import whose client is gone must not commit"
    assert "the client is gone; cancelled 1 request(s) in flight" in daemon.log_text()


def test_a_client_that_half_closes_still_gets_its_import_committed_and_answered(daemon, short_tmp):
    client = daemon.connect()
    path = os.path.join(short_tmp, "small.ndjson")
    write_ndjson(path, 2_000)
    half = socket.socket(socket.AF_UNIX)
    half.connect(daemon.path)
    half.sendall(b'{"jsonrpc":"2.0","id":1,"method":"initialize"}\n'
                 b'{"jsonrpc":"2.0","id":2,"method":"importFile","params":{"index":"products","path":"%s"}}\n'
                 % path.encode())
    half.shutdown(socket.SHUT_WR)
    received = b""
    half.settimeout(GUARD_SECONDS)
    while chunk := half.recv(65536):
        received += chunk
    half.close()
    assert b'"id":2,"result":{"index":"products","imported":2000' in received, received
    assert client.result("search", {"index": "products", "query": ""})["nbHits"] == 2_000


def test_ctrl_c_cancels_a_long_quarry_call_too(daemon, short_tmp):
    client, path = seed(daemon, short_tmp)
    params = '{"index":"products","path":"%s","workDoneToken":"t"}' % path
    pid, master = spawn_in_terminal("call", "importFile", params, "--notifications", "--socket", daemon.path)
    shown = read_terminal(master, until=r'"kind":"report"')
    os.write(master, b"\x03")
    shown += read_terminal(master)
    _, status = os.waitpid(pid, 0)
    os.close(master)
    assert os.waitstatus_to_exitcode(status) == 130, shown
    assert "quarry call: interrupted; 'importFile' was cancelled (a cancelled write changed nothing)" in shown, shown
    assert count(client) == KEPT
