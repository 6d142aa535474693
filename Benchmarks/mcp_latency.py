#!/usr/bin/env python3
"""A `search` tool call through `quarry mcp` against the same search sent to the daemon's socket, on the
realistic catalogue of `catalogue.py` (release build):

- socket: `search` with the parameters the tool sends (`hitsPerPage` 10, facets brand and
  categories.lvl0 with 10 values each), NDJSON on the daemon's Unix socket;
- mcp: `tools/call` `search` with the same arguments, NDJSON on the stdio of one `quarry mcp` process
  (itself a client of the same daemon), answered with compacted hits, the budget and a text summary.

The two are measured in alternating blocks of 100 calls, so both see the same minutes of the VM; "adds" is
the difference of the medians of the block medians. The client is plain Python on pipes and sockets (no
MCP SDK), so the figures are the server side plus the kernel. Prints p50/p99/max and reply sizes.

    swift build -c release --product quarry
    python3 Benchmarks/mcp_latency.py [--binary .build/release/quarry] [--count 100000] [--queries 2000]
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks"))
import catalogue  # noqa: E402
from rpc_roundtrip import connect  # noqa: E402

SEARCHABLE = ["name", "brand", "description"]
FACETS = ["brand", "categories.lvl0", "tags"]
BLOCK = 100


class Lines:
    """Newline-delimited JSON-RPC over a pair of file descriptors."""

    def __init__(self, write_fd, read_fd):
        self.write_fd, self.read_fd, self.buffer, self.next_id = write_fd, read_fd, b"", 1

    def call(self, method, params):
        """The reply's result and its size in bytes; notifications in between are skipped."""
        request_id = self.next_id
        self.next_id += 1
        data = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}).encode() + b"\n"
        view = memoryview(data)
        while view:
            view = view[os.write(self.write_fd, view):]
        while True:
            end = self.buffer.find(b"\n")
            if end < 0:
                chunk = os.read(self.read_fd, 1 << 20)
                if not chunk:
                    raise RuntimeError(f"{method}: the other side closed")
                self.buffer += chunk
                continue
            line, self.buffer = self.buffer[:end], self.buffer[end + 1:]
            message = json.loads(line)
            if message.get("id") == request_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"], len(line)

    def notify(self, method, params):
        os.write(self.write_fd, json.dumps({"jsonrpc": "2.0", "method": method, "params": params}).encode() + b"\n")


def queries(count, seed=11):
    """Queries of 1–3 real catalogue words, the last one a prefix, as an agent or a user types them."""
    words, _ = catalogue.vocabulary()
    rng = random.Random(seed)
    common = words[:5000]
    out = []
    for _ in range(count):
        query = [rng.choice(common) for _ in range(rng.choice([1, 1, 2, 2, 3]))]
        query[-1] = query[-1][:max(2, rng.randint(2, len(query[-1])))]
        out.append(" ".join(query))
    return out


def percentiles(samples):
    ordered = sorted(samples)
    return (ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], ordered[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "quarry"))
    parser.add_argument("--count", type=int, default=100_000, help="catalogue records")
    parser.add_argument("--queries", type=int, default=2000, help="calls per transport, after 200 warm-up")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="qmcp", dir="/tmp") as work:
        records = os.path.join(work, "catalogue.ndjson")
        with open(records, "w") as f:
            for record in catalogue.records(args.count):
                f.write(json.dumps(record, ensure_ascii=False) + "\n")
        sock_path = os.path.join(work, "q.sock")
        daemon = subprocess.Popen([args.binary, "serve", "--socket", sock_path, "--data-dir", os.path.join(work, "data")],
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        mcp = None
        try:
            sock = connect(sock_path, timeout=30)
            direct = Lines(sock.fileno(), sock.fileno())
            direct.call("initialize", {"clientInfo": {"name": "mcp_latency"}})
            direct.notify("initialized", {})
            started = time.monotonic()
            direct.call("importFile", {"index": "products", "path": records, "settings": {
                "searchableAttributes": SEARCHABLE, "attributesForFaceting": FACETS,
                "customRanking": ["desc(popularity)"]}})
            print(f"catalogue: {args.count} records imported in {time.monotonic() - started:.1f} s")

            mcp = subprocess.Popen([args.binary, "mcp", "--socket", sock_path],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            agent = Lines(mcp.stdin.fileno(), mcp.stdout.fileno())
            agent.call("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                      "clientInfo": {"name": "mcp_latency", "version": "0"}})
            agent.notify("notifications/initialized", {})

            facets = ["brand", "categories.lvl0"]

            def over_socket(query):
                return direct.call("search", {"index": "products", "query": query, "hitsPerPage": 10,
                                              "maxValuesPerFacet": 10, "facets": facets})

            def over_mcp(query):
                result, size = agent.call("tools/call", {"name": "search", "arguments": {
                    "index": "products", "query": query, "facets": facets}})
                assert not result["isError"], result
                return result, size

            typed = queries(args.queries + 200)
            for query in typed[:200]:
                over_socket(query)
                over_mcp(query)
            samples = {"socket": [], "mcp": []}
            sizes = {"socket": [], "mcp": []}
            block_medians = {"socket": [], "mcp": []}
            measured = typed[200:]
            for start in range(0, len(measured), BLOCK):
                for name, run in (("socket", over_socket), ("mcp", over_mcp)):
                    block = []
                    for query in measured[start:start + BLOCK]:
                        begin = time.perf_counter()
                        _, size = run(query)
                        block.append((time.perf_counter() - begin) * 1e6)
                        sizes[name].append(size)
                    samples[name] += block
                    block_medians[name].append(statistics.median(block))
            for name in ("socket", "mcp"):
                p50, p99, top = percentiles(samples[name])
                print(f"{name:7} n={len(samples[name]):6}  p50={p50:8.1f} µs  p99={p99:8.1f} µs  max={top:9.1f} µs  "
                      f"reply {statistics.mean(sizes[name]) / 1024:5.1f} KiB avg, {max(sizes[name]) / 1024:5.1f} KiB max")
            adds = statistics.median(block_medians["mcp"]) - statistics.median(block_medians["socket"])
            print(f"quarry mcp adds {adds:.1f} µs to the median search (median of {len(block_medians['mcp'])} block medians)")
        finally:
            if mcp is not None:
                mcp.stdin.close()
                mcp.wait(10)
            daemon.terminate()
            daemon.wait(10)


if __name__ == "__main__":
    main()
