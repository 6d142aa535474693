"""Lifecycle over the real binary: initialize, shutdown, exit codes, stop, signals."""
import os
import signal
import socket
import subprocess
import time

import pytest

from harness import SocketDaemon, StdioDaemon, quarry_binary


def test_request_before_initialize_is_refused(stdio):
    reply = stdio.peer.request("listIndices")
    assert reply["error"]["code"] == -32002
    assert "initialize" in reply["error"]["message"]


def test_initialize_reports_server_and_capabilities(stdio):
    result = stdio.peer.initialize(["latin-1", "utf-8"])
    assert result["serverInfo"]["name"] == "quarry"
    assert result["protocolVersion"]
    assert result["capabilities"]["positionEncoding"] == "utf-8", "an encoding Quarry lacks is skipped"
    assert "search" in result["capabilities"]["methods"]


def test_position_encoding_defaults_to_utf16(stdio):
    assert stdio.peer.initialize()["capabilities"]["positionEncoding"] == "utf-16"


def test_exit_after_shutdown_exits_zero(stdio):
    stdio.peer.initialize()
    assert stdio.peer.request("shutdown") == {"jsonrpc": "2.0", "id": 2, "result": None}
    assert stdio.peer.request("listIndices")["error"]["code"] == -32600
    stdio.peer.notify("exit")
    assert stdio.wait() == 0


def test_exit_without_shutdown_exits_one(stdio):
    stdio.peer.initialize()
    stdio.peer.notify("exit")
    assert stdio.wait() == 1


def test_end_of_input_answers_what_is_owed_then_exits(data_dir):
    requests = b"".join(
        b'{"jsonrpc":"2.0","id":%d,"method":"%s"}\n' % (i, m)
        for i, m in [(1, b"initialize"), (2, b"listIndices"), (3, b"shutdown")]
    )
    done = subprocess.run([quarry_binary(), "serve", "--data-dir", data_dir], input=requests,
                          capture_output=True, timeout=20)
    replies = [line for line in done.stdout.split(b"\n") if line]
    assert len(replies) == 3
    assert done.returncode == 0
    assert b"jsonrpc" not in done.stderr, "logs go to stderr, replies to stdout only"


def test_socket_exit_closes_only_that_connection(daemon):
    a = daemon.connect()
    b = daemon.connect("lsp")
    a.notify("exit")
    assert a.receive(2) is None  # closed by the daemon
    assert "result" in b.request("listIndices")
    assert daemon.process.poll() is None


def test_stop_command_ends_the_daemon_cleanly(daemon):
    client = daemon.connect()
    done = subprocess.run([quarry_binary(), "stop", "--socket", daemon.path], capture_output=True, timeout=20)
    assert done.returncode == 0, done.stderr
    assert daemon.process.wait(10) == 0
    assert not os.path.exists(daemon.path)
    assert client.receive(2) is None


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_signals_remove_the_socket_and_exit_zero(daemon, signum):
    daemon.connect()
    daemon.process.send_signal(signum)
    assert daemon.process.wait(10) == 0
    assert not os.path.exists(daemon.path)


def test_idle_timeout_ends_a_daemon_with_no_clients(short_tmp, data_dir):
    server = SocketDaemon(data_dir, os.path.join(short_tmp, "idle.sock"), extra=["--idle-timeout", "0.5"])
    client = server.connect()
    time.sleep(1.0)
    assert server.process.poll() is None, "a connected client keeps the daemon alive"
    client.close()
    assert server.process.wait(10) == 0
    assert not os.path.exists(server.path)


def test_second_daemon_on_the_same_socket_is_refused(daemon, data_dir, short_tmp):
    other_data = os.path.join(short_tmp, "other")
    os.mkdir(other_data)
    second = subprocess.run([quarry_binary(), "serve", "--socket", daemon.path, "--data-dir", other_data],
                            capture_output=True, timeout=20, stdin=subprocess.DEVNULL)
    assert second.returncode != 0
    assert b"already running" in second.stderr
    assert "result" in daemon.connect().request("listIndices")


def test_second_daemon_on_the_same_data_directory_is_refused(daemon, data_dir, short_tmp):
    second = subprocess.run([quarry_binary(), "serve", "--socket", os.path.join(short_tmp, "b.sock"),
                             "--data-dir", data_dir], capture_output=True, timeout=20, stdin=subprocess.DEVNULL)
    assert second.returncode == 2
    assert b"another quarry daemon owns" in second.stderr
    assert os.path.join(data_dir, "quarry.sock").encode() in second.stderr, "names where the owner listens"


def test_stale_socket_file_is_replaced(short_tmp, data_dir):
    path = os.path.join(short_tmp, "stale.sock")
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(path)
    stale.close()  # the file stays, nobody listens
    server = SocketDaemon(data_dir, path)
    try:
        assert "result" in server.connect().request("listIndices")
    finally:
        server.kill()


def test_socket_is_private(daemon, short_tmp):
    assert os.stat(daemon.path).st_mode & 0o777 == 0o600


def test_default_socket_under_xdg_runtime_dir(short_tmp, data_dir):
    runtime = os.path.join(short_tmp, "run")
    os.mkdir(runtime, 0o700)
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime)
    env.pop("QUARRY_SOCK", None)
    serve_daemon_on_default_socket(env, data_dir, os.path.join(runtime, "quarry", "quarry.sock"))


def test_connect_starts_a_daemon_and_forwards(short_tmp, data_dir):
    path = os.path.join(short_tmp, "auto.sock")
    connect = subprocess.Popen([quarry_binary(), "connect", "--socket", path, "--data-dir", data_dir],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        connect.stdin.write(b'Content-Length: 46\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"initialize"}')
        connect.stdin.flush()
        from harness import Peer
        peer = Peer(connect.stdin.fileno(), connect.stdout.fileno(), "lsp")
        reply = peer.receive(15)
        assert reply and reply["result"]["serverInfo"]["name"] == "quarry"
        assert os.path.exists(path)
    finally:
        connect.kill()
        subprocess.run([quarry_binary(), "stop", "--socket", path], capture_output=True, timeout=20)


def test_default_socket_without_xdg_runtime_dir_is_private_under_tmpdir(short_tmp, data_dir):
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_RUNTIME_DIR", "QUARRY_SOCK")}
    env["TMPDIR"] = short_tmp
    stderr = serve_daemon_on_default_socket(env, data_dir, os.path.join(short_tmp, f"quarry-{os.getuid()}", "quarry.sock"))
    assert b"XDG_RUNTIME_DIR" in stderr, "a warning says why the socket is where it is"


def serve_daemon_on_default_socket(env, data_dir, expected_path):
    """Runs `quarry serve --daemon` in `env` until its socket appears at `expected_path`, in a
    private (0700) directory, then stops it; returns what it wrote on stderr."""
    process = subprocess.Popen([quarry_binary(), "serve", "--daemon", "--data-dir", data_dir], env=env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 10
        while not os.path.exists(expected_path) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert os.path.exists(expected_path)
        assert os.stat(os.path.dirname(expected_path)).st_mode & 0o777 == 0o700
    finally:
        process.terminate()
        process.wait(10)
    return process.stderr.read()
