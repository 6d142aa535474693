#!/usr/bin/env python3
"""The web transport's cost, release build, on the realistic catalogue (catalogue.py; 100k by default).

1. Keystroke round trip of a session over WebSocket against the Unix socket: for each keystroke a client
   sends `setQuery` and times until the `resultsUpdated` of the version the reply names has arrived. The
   two clients take turns on the same keystrokes (each on its own session of one hits searcher, top 20 with
   highlighting and 5 facets, including `price` with its stats), so a busy machine slows both alike; the
   first round warms up. Target: WebSocket adds ≤ 100 µs at p50.
2. In the browser (Debian's Chromium, headless, Selenium): the page on a session of the same index; each
   keystroke is timed by the page itself with the Performance API, from the `input` event to the frame
   after the hits were rendered (`window.quarryTimings`). Target: p50 ≤ 16 ms (one frame).

    swift build -c release --product quarry
    .venv/bin/python Benchmarks/web_latency.py [--binary .build/release/quarry] [--count 100000] [--rounds 3]
"""
import argparse
import base64
import contextlib
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time

from websockets.sync.client import connect

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import catalogue  # noqa: E402
from session_latency import Client, keystrokes, quantiles, results_of  # noqa: E402

SETTINGS = {"searchableAttributes": ["name", "brand", "description"],
            "attributesForFaceting": ["brand", "categories.lvl0", "tags", "price", "rating"],
            "customRanking": ["desc(popularity)"]}
SEARCHER = {"type": "hits", "index": "products", "hitsPerPage": 20,
            "facets": ["brand", "categories.lvl0", "tags", "price", "rating"]}


class WebClient(Client):
    """session_latency.Client over a WebSocket: its own `send` and `messages`, the same `wait` and `call`."""

    def __init__(self, url, key):
        self.connection = connect(url, additional_headers={"Authorization": "Bearer " + key}, max_size=None,
                                  compression=None, legacy=True)
        self.next_id = 0
        self.pending = []

    def send(self, method, params):
        self.next_id += 1
        self.connection.send(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}))
        return self.next_id

    def messages(self):
        message = json.loads(self.connection.recv())
        return message if isinstance(message, list) else [message]


class RawWebClient(WebClient):
    """The same over a WebSocket spoken by hand on a blocking socket, as the Unix-socket client speaks
    NDJSON: no reader thread, so what it measures beyond the socket client is the daemon's WebSocket path."""

    def __init__(self, port, key):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        nonce = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /rpc HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {nonce}\r\nSec-WebSocket-Version: 13\r\n"
                           f"Authorization: Bearer {key}\r\n\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.sock.recv(65536)
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101"), head
        self.next_id = 0
        self.pending = []

    def send(self, method, params):
        self.next_id += 1
        payload = json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}).encode()
        mask = os.urandom(4)
        length = len(payload)
        header = bytes([0x81]) + (bytes([0x80 | length]) if length < 126 else bytes([0x80 | 126]) + struct.pack("!H", length)
                                  if length < 65536 else bytes([0x80 | 127]) + struct.pack("!Q", length))
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)
        return self.next_id

    def _read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise RuntimeError("daemon closed the WebSocket")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def messages(self):
        """The messages of the next frame: none for a ping (answered, as a browser does) or a control frame."""
        first, second = self._read(2)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack("!H", self._read(2))[0]
        elif length == 127:
            length = struct.unpack("!Q", self._read(8))[0]
        payload = self._read(length)
        if first & 0x0F == 0x9:
            self.sock.sendall(bytes([0x8A, 0x80 | len(payload)]) + b"\0\0\0\0" + payload)
            return []
        if first & 0x0F != 0x1:
            return []
        message = json.loads(payload)
        return message if isinstance(message, list) else [message]


def keystroke(client, session, text):
    start = time.perf_counter_ns()
    version = client.call("setQuery", {"session": session, "query": text})["stateVersion"]
    client.wait(results_of(version))
    client.pending = [m for m in client.pending if "id" in m]
    return time.perf_counter_ns() - start


def measure_transports(socket_client, web_client, rounds, name):
    socket_client.call("openSession", {"session": "by-socket-" + name, "searchers": [SEARCHER]})
    web_client.call("openSession", {"session": "by-websocket-" + name, "searchers": [SEARCHER]})
    by_socket, by_web = [], []
    for round_ in range(rounds + 1):
        for text in keystrokes():
            a = keystroke(socket_client, "by-socket-" + name, text)
            b = keystroke(web_client, "by-websocket-" + name, text)
            if round_ > 0:
                by_socket.append(a)
                by_web.append(b)
    return by_socket, by_web


def measure_small_requests(socket_client, web_client, count=2000):
    """A request with a tiny reply (`listSessions`), taking turns: the transports' own cost, client included."""
    by_socket, by_web = [], []
    for n in range(count + 200):
        start = time.perf_counter_ns()
        socket_client.call("listSessions")
        middle = time.perf_counter_ns()
        web_client.call("listSessions")
        end = time.perf_counter_ns()
        if n >= 200:
            by_socket.append(middle - start)
            by_web.append(end - middle)
    return by_socket, by_web


def measure_browser(port, key, rounds):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    try:
        driver.get(f"http://127.0.0.1:{port}/#key={key}&session=browser&index=products")
        WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hits .hit"))
        box = driver.find_element(By.ID, "q")
        samples = []
        for round_ in range(rounds + 1):
            for phrase in ("wireless headphones", "oak table", "steel lamp", "cotton shirt red"):
                box.clear()
                for character in phrase:
                    before = driver.execute_script("return window.quarryTimings.length")
                    box.send_keys(character)
                    WebDriverWait(driver, 30, poll_frequency=0.005).until(
                        lambda d: d.execute_script("return window.quarryTimings.length") > before)
            timings = driver.execute_script("const t = window.quarryTimings.splice(0); return t.map(x => x.ms);")
            if round_ > 0:
                samples.extend(timings)
        return samples
    finally:
        driver.quit()


@contextlib.contextmanager
def http_daemon(binary, data, sock):
    """A release `quarry serve` on `sock` with its HTTP listener on a free port: yields the port and keys.json."""
    process = subprocess.Popen([binary, "serve", "--socket", sock, "--data-dir", data, "--http", "127.0.0.1:0"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        address_file = os.path.join(data, "http-address")
        while not os.path.exists(address_file):
            time.sleep(0.01)
        with open(address_file) as f:
            port = int(f.read().strip().rsplit(":", 1)[1])
        with open(os.path.join(data, "keys.json")) as f:
            keys = json.load(f)
        yield port, keys
    finally:
        process.terminate()
        process.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "quarry"))
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="qw", dir="/tmp") as tmp:
        data = os.path.join(tmp, "data")
        sock = os.path.join(tmp, "q.sock")
        records = os.path.join(tmp, "catalogue.ndjson")
        with open(records, "w") as f:
            for record in catalogue.records(args.count):
                f.write(json.dumps(record, ensure_ascii=False) + "\n")
        with http_daemon(args.binary, data, sock) as (port, keys):
            socket_client = Client(sock)
            socket_client.call("initialize")
            started = time.monotonic()
            socket_client.call("importFile", {"index": "products", "path": records, "settings": SETTINGS})
            print(f"catalogue: {args.count} records imported in {time.monotonic() - started:.1f} s")
            clients = [("websockets 17.4", WebClient(f"ws://127.0.0.1:{port}/rpc", keys["admin"])),
                       ("raw WebSocket", RawWebClient(port, keys["admin"]))]
            for label, web_client in clients:
                web_client.call("initialize")
                name = label.split()[0]
                by_socket, by_web = measure_transports(socket_client, web_client, args.rounds, name)
                s, w = quantiles(by_socket), quantiles(by_web)
                deltas = sorted(b - a for a, b in zip(by_socket, by_web))
                print(f"[{label}] Unix socket setQuery→resultsUpdated p50={s[0] * 1000:6.0f} µs  p99={s[1] * 1000:6.0f} µs  n={s[2]}")
                print(f"[{label}] WebSocket   setQuery→resultsUpdated p50={w[0] * 1000:6.0f} µs  p99={w[1] * 1000:6.0f} µs")
                print(f"[{label}] WebSocket minus socket, same keystroke p50={deltas[len(deltas) // 2] / 1e3:+6.0f} µs")
                small_socket, small_web = measure_small_requests(socket_client, web_client)
                s, w = quantiles(small_socket), quantiles(small_web)
                print(f"[{label}] listSessions round trip: socket p50={s[0] * 1000:5.0f} µs p99={s[1] * 1000:5.0f} µs, "
                      f"WebSocket p50={w[0] * 1000:5.0f} µs p99={w[1] * 1000:5.0f} µs")
            samples = sorted(measure_browser(port, keys["search"], args.rounds))
            pick = lambda p: samples[min(len(samples) - 1, int(len(samples) * p))]
            print(f"browser      keystroke→painted hits   p50={pick(0.5):7.1f} ms  p90={pick(0.9):7.1f} ms  "
                  f"p99={pick(0.99):7.1f} ms  n={len(samples)}")


if __name__ == "__main__":
    main()
