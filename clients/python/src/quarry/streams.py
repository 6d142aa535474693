"""The blocking byte streams a ``Client`` runs over: a child's pipes or a Unix socket."""
from __future__ import annotations

import os
import socket
import subprocess


class PipeStream:
    """A private ``quarry serve`` on stdin/stdout; its stderr goes to ours unless told otherwise."""

    def __init__(self, command: list[str], stderr: int | None = None) -> None:
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr)
        assert self.process.stdin is not None and self.process.stdout is not None
        self._write_fd = self.process.stdin.fileno()
        self._read_fd = self.process.stdout.fileno()

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self._write_fd, view):]

    def read(self) -> bytes:
        return os.read(self._read_fd, 1 << 16)

    def close_write(self) -> None:
        if self.process.stdin and not self.process.stdin.closed:
            self.process.stdin.close()

    def close(self, timeout: float = 5.0) -> None:
        self.close_write()
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout:
            self.process.stdout.close()


class SocketStream:
    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def write(self, data: bytes) -> None:
        self.sock.sendall(data)

    def read(self) -> bytes:
        return self.sock.recv(1 << 16)

    def close_write(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass

    def close(self, timeout: float = 5.0) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
