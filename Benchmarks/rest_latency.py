#!/usr/bin/env python3
"""Algolia's REST API (protocol/algolia-rest.md) against the Unix socket, release build, on the realistic catalogue
(catalogue.py; 100k by default).

1. Search: the same search (each keystroke of session_latency's queries, top 20 with highlighting and 5 facets)
   as `POST /1/indexes/products/query` over one HTTP keep-alive connection (http.client, no client library in
   the way) and as JSON-RPC `search` over the Unix socket, taking turns so a busy machine slows both alike; the
   first round warms up. Also through Algolia's official Python client, for what an application sees.
   Target: REST adds ≤ 150 µs at p50.
2. Indexing: `save_objects` of the official client in batches of 1,000 (each batch one `POST …/batch`, then
   `wait_for_task`) against `saveObjects` of the same 1,000-record batches over the socket, into new indices.

    swift build -c release --product quarry
    .venv/bin/python Benchmarks/rest_latency.py [--binary .build/release/quarry] [--count 100000] [--rounds 2]
"""
import argparse
import http.client
import json
import os
import socket
import sys
import tempfile
import time
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "EndToEnd"))
import catalogue  # noqa: E402
from session_latency import Client, keystrokes, quantiles  # noqa: E402
from web_latency import SETTINGS, http_daemon  # noqa: E402

SEARCH = {"hitsPerPage": 20, "facets": ["brand", "categories.lvl0", "tags", "price", "rating"]}


class RESTClient:
    """One keep-alive HTTP connection speaking Algolia's REST API."""

    def __init__(self, port, key):
        self.connection = http.client.HTTPConnection("127.0.0.1", port)
        self.headers = {"X-Algolia-API-Key": key, "X-Algolia-Application-Id": "bench", "Content-Type": "application/json"}

    def post(self, path, body):
        self.connection.request("POST", path, body=json.dumps(body), headers=self.headers)
        response = self.connection.getresponse()
        answer = json.loads(response.read())
        if response.status != 200:
            raise RuntimeError(f"{path}: {response.status} {answer}")
        return answer


class RawRESTClient:
    """The same requests on a plain keep-alive socket with no HTTP library, as session_latency's socket client is
    one for JSON-RPC: what the daemon's HTTP edge adds, without http.client's own cost in Python."""

    def __init__(self, port, key):
        self.socket = socket.create_connection(("127.0.0.1", port))
        self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.head = (f"Host: 127.0.0.1:{port}\r\nX-Algolia-API-Key: {key}\r\nX-Algolia-Application-Id: bench\r\n"
                     "Content-Type: application/json\r\n").encode()
        self.buffer = b""

    def post(self, path, body):
        data = json.dumps(body).encode()
        self.socket.sendall(b"POST %s HTTP/1.1\r\n%sContent-Length: %d\r\n\r\n%s" % (path.encode(), self.head, len(data), data))
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.socket.recv(65536)
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.split(b"\r\n")
        fields = dict(line.split(b": ", 1) for line in lines[1:])
        length = int(fields[b"Content-Length"])  # the edge always sends one (no chunked replies)
        while len(self.buffer) < length:
            self.buffer += self.socket.recv(65536)
        payload, self.buffer = self.buffer[:length], self.buffer[length:]
        if not lines[0].startswith(b"HTTP/1.1 200"):
            raise RuntimeError(f"{path}: {lines[0]} {payload[:200]}")
        return json.loads(payload)


def measure_search(socket_client, rest, raw, official, rounds):
    by_socket, by_rest, by_raw, by_official = [], [], [], []
    for round_ in range(rounds + 1):
        for text in keystrokes():
            params = {"query": text, **SEARCH}
            t0 = time.perf_counter_ns()
            a = socket_client.call("search", {"index": "products", **params})
            t1 = time.perf_counter_ns()
            b = rest.post("/1/indexes/products/query", params)
            t2 = time.perf_counter_ns()
            c = official.search_single_index("products", params)
            t3 = time.perf_counter_ns()
            d = raw.post("/1/indexes/products/query", params)
            t4 = time.perf_counter_ns()
            assert a["nbHits"] == b["nbHits"] == c.nb_hits == d["nbHits"], text
            if round_ > 0:
                by_socket.append(t1 - t0)
                by_rest.append(t2 - t1)
                by_official.append(t3 - t2)
                by_raw.append(t4 - t3)
    return by_socket, by_rest, by_raw, by_official


def measure_indexing(socket_client, official, records, batch=1000):
    started = time.perf_counter()
    for start in range(0, len(records), batch):
        socket_client.call("saveObjects", {"index": "by_socket", "objects": records[start:start + batch]})
    by_socket = time.perf_counter() - started
    started = time.perf_counter()
    official.save_objects("by_rest", records, wait_for_tasks=True, batch_size=batch)
    by_rest = time.perf_counter() - started
    return by_socket, by_rest


def main():
    from algolia_support import client as algolia_client  # noqa: E402

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "quarry"))
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--index-count", type=int, default=20_000, help="records written by each indexing run")
    args = parser.parse_args()
    print(f"load before: {open('/proc/loadavg').read().strip()}")
    with tempfile.TemporaryDirectory(prefix="qr", dir="/tmp") as tmp:
        data = os.path.join(tmp, "data")
        sock = os.path.join(tmp, "q.sock")
        records = list(catalogue.records(args.count))
        path = os.path.join(tmp, "catalogue.ndjson")
        with open(path, "w") as f:
            for record in records:
                f.write(json.dumps(record, ensure_ascii=False) + "\n")
        with http_daemon(args.binary, data, sock) as (port, keys):
            daemon = types.SimpleNamespace(port=port, keys=keys)  # what algolia_client reads
            socket_client = Client(sock)
            socket_client.call("initialize")
            started = time.monotonic()
            socket_client.call("importFile", {"index": "products", "path": path, "settings": SETTINGS})
            print(f"catalogue: {args.count} records imported in {time.monotonic() - started:.1f} s")
            rest = RESTClient(port, keys["admin"])
            official = algolia_client(daemon, "admin")
            raw = RawRESTClient(port, keys["admin"])
            by_socket, by_rest, by_raw, by_official = measure_search(socket_client, rest, raw, official, args.rounds)
            s, r, o, w = quantiles(by_socket), quantiles(by_rest), quantiles(by_official), quantiles(by_raw)
            deltas = sorted(b - a for a, b in zip(by_socket, by_rest))
            raw_deltas = sorted(b - a for a, b in zip(by_socket, by_raw))
            print(f"search  Unix socket (JSON-RPC)      p50={s[0] * 1000:6.0f} µs  p99={s[1] * 1000:6.0f} µs  n={s[2]}")
            print(f"search  REST, http.client keep-alive p50={r[0] * 1000:6.0f} µs  p99={r[1] * 1000:6.0f} µs")
            print(f"search  REST minus socket, same search p50={deltas[len(deltas) // 2] / 1e3:+6.0f} µs")
            print(f"search  REST, plain socket client    p50={w[0] * 1000:6.0f} µs  p99={w[1] * 1000:6.0f} µs")
            print(f"search  REST (plain) minus socket    p50={raw_deltas[len(raw_deltas) // 2] / 1e3:+6.0f} µs")
            print(f"search  REST, official client        p50={o[0] * 1000:6.0f} µs  p99={o[1] * 1000:6.0f} µs")
            written = records[:args.index_count]
            socket_seconds, rest_seconds = measure_indexing(socket_client, official, written)
            print(f"indexing {len(written)} records in batches of 1,000: socket saveObjects {socket_seconds:.1f} s "
                  f"({len(written) / socket_seconds:,.0f}/s), REST save_objects {rest_seconds:.1f} s "
                  f"({len(written) / rest_seconds:,.0f}/s)")
    print(f"load after: {open('/proc/loadavg').read().strip()}")


if __name__ == "__main__":
    main()
