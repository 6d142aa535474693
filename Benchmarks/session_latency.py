#!/usr/bin/env python3
"""Keystroke latency of a search session over the Unix socket, release build.

Workload: a synthetic catalogue (100k products; 1M with --million) imported with
`importFile`; a session with two searchers (hits with 5 facets, and facet values
of `brand`); queries typed one keystroke at a time. For each keystroke the
client sends `setQuery` and times until the `resultsUpdated` of the version the
reply names arrives. Beside it, the same work as one-shot `search` requests
(the hits search, then the facet count search), so the session's own cost is
the difference. Then the fan-out: 100 connections attached to one session on a
small index, timed from `setQuery` to the last connection's `resultsUpdated`.

    swift build -c release --product quarry
    python3 Benchmarks/session_latency.py [--binary .build/release/quarry] [--million]
"""
import argparse
import json
import os
import random
import selectors
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QUERIES = ["wireless headphones", "oak table", "steel lamp", "cotton shirt red"]
FACETS = ["brand", "category", "color", "rating", "price"]
WORDS = ("wireless headphones oak table steel lamp cotton shirt red blue green chair desk sofa cable charger "
         "kettle mug plate bowl knife spoon fork jacket boots scarf glove watch clock radio speaker camera "
         "lens tripod bag wallet belt ring necklace bracelet pillow blanket towel curtain rug mirror").split()


def catalogue(path, count, seed=7):
    rng = random.Random(seed)
    brands = [f"brand{i}" for i in range(50)]
    categories = [f"category{i}" for i in range(20)]
    colors = "red blue green black white grey yellow orange purple pink brown beige".split()
    with open(path, "w") as f:
        for i in range(count):
            f.write(json.dumps({
                "objectID": str(i), "name": " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 5))),
                "brand": rng.choice(brands), "category": rng.choice(categories), "color": rng.choice(colors),
                "price": round(rng.uniform(1, 500), 2), "rating": rng.randint(1, 5), "popularity": rng.randint(0, 10000),
            }) + "\n")


class Client:
    """One NDJSON connection: requests by id, notifications kept in arrival order."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(path)
        self.buffer = b""
        self.next_id = 0
        self.pending = []

    def send(self, method, params):
        self.next_id += 1
        self.sock.sendall(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}).encode() + b"\n")
        return self.next_id

    def messages(self):
        """Messages already buffered or readable now (reads once)."""
        chunk = self.sock.recv(1 << 20)
        if not chunk:
            raise RuntimeError("daemon closed the connection")
        self.buffer += chunk
        *lines, self.buffer = self.buffer.split(b"\n")
        return [json.loads(line) for line in lines if line.strip()]

    def wait(self, predicate):
        while True:
            for index, message in enumerate(self.pending):
                if predicate(message):
                    del self.pending[index]
                    return message
            self.pending.extend(self.messages())

    def call(self, method, params=None, timeout_note=""):
        request_id = self.send(method, params or {})
        reply = self.wait(lambda m: m.get("id") == request_id)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply["result"]


def results_of(version):
    return lambda m: m.get("method") == "resultsUpdated" and m["params"]["stateVersion"] >= version


def quantiles(samples):
    samples = sorted(samples)
    pick = lambda p: samples[min(len(samples) - 1, int(len(samples) * p))] / 1e6
    return pick(0.5), pick(0.99), len(samples)


def keystrokes():
    for query in QUERIES:
        for length in range(1, len(query) + 1):
            yield query[:length]


def open_bench_session(client, index, name):
    client.call("openSession", {"session": name, "searchers": [
        {"type": "hits", "index": index, "hitsPerPage": 20, "facets": FACETS},
        {"type": "facets", "index": index, "attribute": "brand"}]})


def keystroke_by_session(client, name, text):
    start = time.perf_counter_ns()
    version = client.call("setQuery", {"session": name, "query": text})["stateVersion"]
    client.wait(results_of(version))
    client.pending = [m for m in client.pending if "id" in m]  # drop older pushes
    return time.perf_counter_ns() - start


def keystroke_by_one_shot(client, index, text):
    start = time.perf_counter_ns()
    client.call("search", {"index": index, "query": text, "hitsPerPage": 20, "facets": FACETS})
    client.call("search", {"index": index, "query": "", "hitsPerPage": 0, "facets": ["brand"], "maxValuesPerFacet": 1000})
    return time.perf_counter_ns() - start


def measure_keystrokes(client, index, rounds):
    """Session and one-shot timings of the same keystrokes, interleaved so a
    busy machine slows both alike. The first round warms up."""
    name = f"bench-{index}"
    open_bench_session(client, index, name)
    session, one_shot = [], []
    for round_ in range(rounds + 1):
        for text in keystrokes():
            a = keystroke_by_session(client, name, text)
            b = keystroke_by_one_shot(client, index, text)
            if round_ > 0:
                session.append(a)
                one_shot.append(b)
    return session, one_shot


def report(label, session, one_shot):
    s, o = quantiles(session), quantiles(one_shot)
    deltas = sorted(a - b for a, b in zip(session, one_shot))
    print(f"{label:<10} session setQuery→resultsUpdated    p50={s[0]:8.2f} ms  p99={s[1]:8.2f} ms  n={s[2]}")
    print(f"{label:<10} same 2 searches as one-shot search p50={o[0]:8.2f} ms  p99={o[1]:8.2f} ms")
    print(f"{label:<10} session minus one-shot, per key    p50={deltas[len(deltas) // 2] / 1e6:+8.2f} ms")


def measure_fanout(path, connections, changes, session):
    """Times setQuery until every attached connection has read the
    resultsUpdated of that version. Pushes are recognised by their first bytes
    and not parsed, so the Python client's own cost stays small."""
    clients = [Client(path) for _ in range(connections)]
    for client in clients:
        client.call("initialize")
    clients[0].call("openSession", {"session": session, "searchers": [{"type": "hits", "index": "small", "hitsPerPage": 20}]})
    for client in clients[1:]:
        client.call("openSession", {"session": session})
    for client in clients:
        client.sock.setblocking(False)
    selector = selectors.DefaultSelector()
    for index, client in enumerate(clients):
        selector.register(client.sock, selectors.EVENT_READ, index)
    prefix = b'{"jsonrpc":"2.0","method":"resultsUpdated","params":{"session":"%s","stateVersion":' % session.encode()
    samples = []
    for change in range(changes + 10):
        version = change + 2  # openSession made version 1
        marker = prefix + b"%d," % version
        buffers = [b""] * connections
        waiting = set(range(connections))
        start = time.perf_counter_ns()
        clients[0].sock.sendall(json.dumps({"jsonrpc": "2.0", "id": 10_000 + change, "method": "setQuery", "params": {
            "session": session, "query": WORDS[change % len(WORDS)][: 1 + change % 3]}}).encode() + b"\n")
        while waiting:
            for key, _ in selector.select():
                index = key.data
                try:
                    chunk = clients[index].sock.recv(1 << 20)
                except BlockingIOError:
                    continue
                buffers[index] = buffers[index][-len(marker):] + chunk
                if index in waiting and marker in buffers[index]:
                    waiting.discard(index)
        if change >= 10:
            samples.append(time.perf_counter_ns() - start)
    for client in clients:
        client.sock.close()
    return samples


def run(binary, count, rounds):
    with tempfile.TemporaryDirectory(prefix="qs", dir="/tmp") as tmp:
        data = os.path.join(tmp, "data")
        path = os.path.join(tmp, "q.sock")
        process = subprocess.Popen([binary, "serve", "--socket", path, "--data-dir", data],
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while not os.path.exists(path):
                time.sleep(0.01)
            client = Client(path)
            client.call("initialize")
            records = os.path.join(tmp, "catalogue.ndjson")
            catalogue(records, count)
            start = time.monotonic()
            client.call("importFile", {"index": "catalogue", "path": records, "settings": {
                "searchableAttributes": ["name", "brand", "category"], "customRanking": ["desc(popularity)"],
                "attributesForFaceting": ["searchable(brand)", "category", "color", "rating", "price"]}})
            print(f"{count} records imported in {time.monotonic() - start:.1f} s")
            report(f"{count} docs", *measure_keystrokes(client, "catalogue", rounds))

            small = os.path.join(tmp, "small.ndjson")
            catalogue(small, 1000, seed=11)
            client.call("importFile", {"index": "small", "path": small, "settings": {
                "attributesForFaceting": ["searchable(brand)", "category", "color", "rating", "price"]}})
            report("1000 docs", *measure_keystrokes(client, "small", rounds))
            for connections in (1, 100):
                fan = quantiles(measure_fanout(path, connections, 100, session=f"fan{connections}"))
                print(f"fan-out {connections:>3} connections (1k docs) setQuery→last resultsUpdated  "
                      f"p50={fan[0]:8.2f} ms  p99={fan[1]:8.2f} ms  n={fan[2]}")
        finally:
            process.terminate()
            process.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "quarry"))
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--million", action="store_true", help="also run on 1,000,000 documents")
    parser.add_argument("--rounds", type=int, default=3, help="measured passes over the typed queries")
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        sys.exit(f"no binary at {args.binary}: swift build -c release --product quarry")
    run(args.binary, args.count, args.rounds)
    if args.million:
        run(args.binary, 1_000_000, max(1, args.rounds // 3))


if __name__ == "__main__":
    main()
