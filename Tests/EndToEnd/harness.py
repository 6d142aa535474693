"""Talks to the real `quarry` binary over real pipes and Unix sockets.

Both framings are spoken byte-exactly here (not through a library) so tests can
also send what a broken client would: cut frames, huge headers, bad bytes.
"""
import json
import os
import select
import shlex
import signal
import socket
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# How long a test waits for a message before calling it a hang; not a speed assertion (Benchmarks/RESULTS.md
# measures speed). Writes run at nice 10 (ARCHITECTURE.md): on a busy machine a debug build's write
# of a few thousand records, starved by other processes, took over 10 s.
TIMEOUT = 30.0


def quarry_binary():
    path = os.environ.get("QUARRY_BIN") or os.path.join(ROOT, ".build", "debug", "quarry")
    if not os.path.exists(path):
        raise RuntimeError(f"no quarry binary at {path}: run `swift build` first or set QUARRY_BIN")
    return path


def extra_serve_args():
    """`$QUARRY_EXTRA_SERVE_ARGS`, shell-split: what a test tier appends to every
    `quarry serve` started here (the Typesense tier: its cluster's flags)."""
    return shlex.split(os.environ.get("QUARRY_EXTRA_SERVE_ARGS", ""))


def write_ndjson(path, count, start=0):
    """A records file for imports: `imported product N` with a price, one JSON object per line."""
    with open(path, "w") as f:
        for i in range(start, start + count):
            f.write(json.dumps({"objectID": f"imp-{i}", "name": f"imported product {i}", "price": i % 100}) + "\n")


def encode(message, framing):
    body = message if isinstance(message, bytes) else json.dumps(message).encode()
    if framing == "lsp":
        return b"Content-Length: %d\r\n\r\n" % len(body) + body
    return body + b"\n"


class Reader:
    """Splits a byte stream into messages in either framing."""

    def __init__(self, framing):
        self.framing = framing
        self.buffer = b""

    def feed(self, data):
        self.buffer += data

    def next_message(self):
        if self.framing == "ndjson":
            newline = self.buffer.find(b"\n")
            if newline < 0:
                return None
            line, self.buffer = self.buffer[:newline], self.buffer[newline + 1:]
            return json.loads(line) if line.strip() else self.next_message()
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return None
        headers = dict(
            line.split(b":", 1) for line in self.buffer[:end].split(b"\r\n") if b":" in line
        )
        length = int(headers[b"Content-Length"].strip())
        if len(self.buffer) < end + 4 + length:
            return None
        body = self.buffer[end + 4:end + 4 + length]
        self.buffer = self.buffer[end + 4 + length:]
        return json.loads(body)


class Peer:
    """One client connection: send raw bytes or messages, receive messages."""

    def __init__(self, write_fd, read_fd, framing, closer=None):
        self.write_fd = write_fd
        self.read_fd = read_fd
        self.reader = Reader(framing)
        self.framing = framing
        self.closer = closer
        self.next_id = 1
        self.notifications = []

    def send_raw(self, data):
        view = memoryview(data)
        while view:
            written = os.write(self.write_fd, view)
            view = view[written:]

    def send(self, message):
        self.send_raw(encode(message, self.framing))

    def receive(self, timeout=TIMEOUT):
        """The next message, or None if nothing arrives in time (or EOF)."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.reader.next_message()
            if message is not None:
                return message
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            ready, _, _ = select.select([self.read_fd], [], [], remaining)
            if not ready:
                return None
            data = os.read(self.read_fd, 1 << 20)
            if not data:
                return None
            self.reader.feed(data)

    def request(self, method, params=None, timeout=TIMEOUT):
        """Sends a request and returns its reply, keeping notifications aside."""
        request_id = self.next_id
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.reply_to(request_id, timeout)

    def reply_to(self, request_id, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        while True:
            message = self.receive(max(0.0, deadline - time.monotonic()))
            assert message is not None, f"no reply to request {request_id}"
            if "method" in message:
                self.notifications.append(message)
                continue
            if message.get("id") == request_id:
                return message

    def result(self, method, params=None, timeout=TIMEOUT):
        reply = self.request(method, params, timeout)
        assert "result" in reply, reply
        return reply["result"]

    def notify(self, method, params=None):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def initialize(self, encodings=None):
        params = {"clientInfo": {"name": "tests"}}
        if encodings is not None:
            params["capabilities"] = {"general": {"positionEncodings": encodings}}
        result = self.result("initialize", params)
        self.notify("initialized", {})
        return result

    def close(self):
        if self.closer:
            self.closer()


class StdioDaemon:
    """`quarry serve` on pipes."""

    def __init__(self, data_dir, framing="lsp", extra=()):
        self.process = subprocess.Popen(
            [quarry_binary(), "serve", "--data-dir", str(data_dir), *extra, *extra_serve_args()],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        self.peer = Peer(self.process.stdin.fileno(), self.process.stdout.fileno(), framing,
                         closer=self.process.stdin.close)

    def wait(self, timeout=TIMEOUT):
        return self.process.wait(timeout)

    def stderr(self):
        return self.process.stderr.read().decode(errors="replace")

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


class SocketDaemon:
    """`quarry serve --socket PATH`, waited for until the socket answers."""

    def __init__(self, data_dir, socket_path, extra=(), wait=True, preexec_fn=None):
        self.path = str(socket_path)
        self.log = open(os.path.join(str(data_dir), "..", os.path.basename(str(data_dir)) + ".log"), "wb")
        self.process = subprocess.Popen(
            [quarry_binary(), "serve", "--socket", self.path, "--data-dir", str(data_dir), *extra,
             *extra_serve_args()],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.log, preexec_fn=preexec_fn,
        )
        if wait:
            self.wait_until_listening()

    def wait_until_listening(self, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"daemon exited with {self.process.returncode}: {self.log_text()}")
            try:
                probe = socket.socket(socket.AF_UNIX)
                probe.connect(self.path)
                probe.close()
                return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("daemon did not listen in time")

    def connect(self, framing="ndjson", initialize=True):
        sock = socket.socket(socket.AF_UNIX)
        sock.connect(self.path)
        peer = Peer(sock.fileno(), sock.fileno(), framing, closer=sock.close)
        peer.socket = sock
        if initialize:
            peer.initialize()
        return peer

    def log_text(self):
        self.log.flush()
        with open(self.log.name, "rb") as f:
            return f.read().decode(errors="replace")

    def terminate(self, timeout=TIMEOUT):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout)

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
