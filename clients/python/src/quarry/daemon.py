"""Where the daemon is: its binary, its default socket, and starting a shared
daemon when none answers (as ``quarry connect`` does)."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time

from .errors import CannotConnect

#: A daemon started on a client's behalf stops after this many idle seconds.
IDLE_TIMEOUT = 600


def find_binary(binary: str | None = None) -> str:
    """``binary``, else ``$QUARRY_BIN``, else ``quarry`` on ``$PATH``."""
    candidate = binary or os.environ.get("QUARRY_BIN") or shutil.which("quarry")
    if not candidate:
        raise CannotConnect("no quarry binary: put `quarry` on $PATH, set $QUARRY_BIN, or pass binary=")
    if not os.access(candidate, os.X_OK):
        raise CannotConnect(f"{candidate} is not an executable quarry binary")
    return candidate


def default_socket_path() -> str:
    """``$QUARRY_SOCK``, else ``$XDG_RUNTIME_DIR/quarry/quarry.sock``, else a
    private directory under ``$TMPDIR`` (the same rule as the daemon's)."""
    explicit = os.environ.get("QUARRY_SOCK")
    if explicit:
        return explicit
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime:
        return runtime.rstrip("/") + "/quarry/quarry.sock"
    tmp = (os.environ.get("TMPDIR") or "/tmp").rstrip("/") or "/tmp"
    return f"{tmp}/quarry-{os.getuid()}/quarry.sock"


def default_data_dir() -> str:
    data = os.environ.get("XDG_DATA_HOME")
    if data and data.startswith("/"):
        return data + "/quarry"
    return os.path.expanduser("~/.local/share/quarry")


def open_socket(path: str) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(path)
    except OSError:
        sock.close()
        raise
    return sock


def connect_or_start(path: str, binary: str | None = None, data_dir: str | None = None,
                     timeout: float = 10.0) -> socket.socket:
    """A socket connected to the daemon at ``path``, starting one in the
    background (its own session, logging to ``DATA_DIR/daemon.log``) if none answers."""
    try:
        return open_socket(path)
    except OSError:
        pass
    executable = find_binary(binary)
    directory = data_dir or default_data_dir()
    os.makedirs(directory, mode=0o700, exist_ok=True)
    log_path = os.path.join(directory, "daemon.log")
    with open(log_path, "ab") as log:
        process = subprocess.Popen(
            [executable, "serve", "--socket", path, "--data-dir", directory, "--idle-timeout", str(IDLE_TIMEOUT)],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True)
    _started.append(process)  # reaped by Popen's own bookkeeping, never waited for here
    deadline = time.monotonic() + timeout
    exited_at: float | None = None
    delay = 0.005
    while True:
        try:
            return open_socket(path)
        except OSError as error:
            now = time.monotonic()
            if exited_at is None and process.poll() is not None:
                exited_at = now  # maybe another client won the race to start one: try a little longer
            if exited_at is not None and now - exited_at > 1.0:
                raise CannotConnect(f"the daemon started for {path} exited; see {log_path}") from error
            if now > deadline:
                raise CannotConnect(f"the daemon started for {path} did not answer within {timeout:.0f} s; "
                                    f"see {log_path}") from error
        time.sleep(delay)
        delay = min(delay * 2, 0.2)


_started: list[subprocess.Popen[bytes]] = []


def spawn_command(binary: str | None = None, data_dir: str | None = None,
                  extra: tuple[str, ...] = ()) -> list[str]:
    """The command line of a private ``quarry serve`` on pipes."""
    command = [find_binary(binary), "serve"]
    if data_dir:
        command += ["--data-dir", data_dir]
    return command + list(extra)
