"""The web transport from Python: a daemon with `--http`, its keys, and a WebSocket peer that speaks
like harness.Peer (send, receive, request, result, notify, initialize), so the socket suites' test
bodies run over a WebSocket unchanged."""
import json
import os
import time

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from harness import TIMEOUT, Peer, SocketDaemon


class WebDaemon(SocketDaemon):
    """`quarry serve --socket PATH --http 127.0.0.1:0`: the port is the system's, read from
    `<data-dir>/http-address` once the daemon has written it."""

    def __init__(self, data_dir, socket_path, extra=(), http="127.0.0.1:0", preexec_fn=None):
        self.data_dir = str(data_dir)
        address_file = os.path.join(self.data_dir, "http-address")
        if os.path.exists(address_file):
            os.unlink(address_file)
        http_args = ("--http", http) if http else ()
        super().__init__(data_dir, socket_path, extra=(*http_args, *extra), preexec_fn=preexec_fn)
        deadline = time.monotonic() + TIMEOUT
        while not os.path.exists(address_file):
            assert time.monotonic() < deadline, f"no {address_file}: {self.log_text()}"
            assert self.process.poll() is None, self.log_text()
            time.sleep(0.02)
        with open(address_file) as f:
            self.address = f.read().strip()
        self.port = int(self.address.rsplit(":", 1)[1])

    @property
    def keys(self):
        with open(os.path.join(self.data_dir, "keys.json")) as f:
            return json.load(f)

    def url(self, path="/rpc", scheme="ws"):
        return f"{scheme}://127.0.0.1:{self.port}{path}"

    @property
    def origin(self):
        return f"http://127.0.0.1:{self.port}"

    def websocket(self, key="admin", initialize=True, encodings=None, **options):
        """A WebSocket peer with the admin or search key, by Authorization header."""
        headers = {"Authorization": "Bearer " + self.keys[key]} if key else {}
        peer = WebSocketPeer(connect(self.url(), additional_headers=headers, open_timeout=TIMEOUT,
                                     max_size=None, legacy=True, **options))
        if initialize:
            peer.initialize(encodings)
        return peer


class WebSocketPeer(Peer):
    """harness.Peer over one WebSocket: one JSON-RPC message or batch per text frame."""

    def __init__(self, connection):
        super().__init__(None, None, "ndjson")
        self.connection = connection

    def send(self, message):
        self.connection.send(message.decode() if isinstance(message, bytes) else json.dumps(message))

    def receive(self, timeout=TIMEOUT):
        """The next message, or None if nothing arrives in time (or the connection closed)."""
        try:
            return json.loads(self.connection.recv(timeout=timeout))
        except (TimeoutError, ConnectionClosed):
            return None

    def close(self):
        self.connection.close()
