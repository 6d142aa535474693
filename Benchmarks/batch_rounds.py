"""Two builds of the daemon, each loading the same records by `saveObjects` batches, in alternated rounds (A B B A
per round): the host's speed drifts within minutes, and only alternation separates a change from the drift.
Each load is a fresh daemon, its requests made before the clock starts and sent one after another, each waiting
for its reply, as `peer_bench.py` sends them. Per load: docs/s, the daemon's CPU (all threads, % of one core),
its CPU time a record, its segments after the stream and its peak RSS; then each build's mean.

    python3 Benchmarks/batch_rounds.py --catalogue /tmp/cat1m.ndjson --count 400000 --batch 1000 \\
        --rounds 2 BUILD_A BUILD_B
"""
import argparse
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_bench  # noqa: E402  (the daemon harness and the benchmark's settings)


def load(binary, lines, batch):
    """Streams `lines` by `batch` into a fresh daemon of `binary`; its figures."""
    directory = tempfile.mkdtemp(prefix="quarry-rounds-")
    try:
        daemon = peer_bench.Daemon(binary, os.path.join(directory, "data"), os.path.join(directory, "q.sock"))
        settings = {"searchableAttributes": peer_bench.SEARCHABLE, "attributesForFaceting": peer_bench.FACETS,
                    "customRanking": ["desc(popularity)"]}
        daemon.call("setSettings", {"index": "products", "settings": settings})
        requests = [b'{"jsonrpc":"2.0","id":%d,"method":"saveObjects","params":{"index":"products","objects":['
                    % (n + 1000) + b",".join(lines[i:i + batch]) + b"]}}\n"
                    for n, i in enumerate(range(0, len(lines), batch))]
        pid = daemon.process.pid
        began, cpu = time.monotonic(), peer_bench.cpu_seconds(pid)
        for request in requests:
            daemon.call_raw(request)
        seconds = time.monotonic() - began
        cpu = peer_bench.cpu_seconds(pid) - cpu
        segments = daemon.call("listIndices", {"memory": True})["items"][0]["memory"]["segments"]
        peak = peer_bench.rss_mib(pid, "VmHWM")
        daemon.stop()
        return {"rate": len(lines) / seconds, "cpu": 100 * cpu / seconds, "cpu_us": 1e6 * cpu / len(lines),
                "segments": segments, "peak": peak}
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--catalogue", required=True, help="NDJSON records (Benchmarks/catalogue.py makes them)")
    parser.add_argument("--count", type=int, default=400_000)
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("builds", nargs=2, help="two quarry binaries, A and B")
    args = parser.parse_args()
    with open(args.catalogue, "rb") as f:
        lines = [line.rstrip(b"\n") for _, line in zip(range(args.count), f)]
    rates = {build: [] for build in args.builds}
    first, second = args.builds
    for _ in range(args.rounds):
        for build in (first, second, second, first):
            figures = load(build, lines, args.batch)
            rates[build].append(figures["rate"])
            print(f"{build}: {figures['rate']:,.0f} docs/s, CPU {figures['cpu']:.0f}%, {figures['cpu_us']:.1f} µs a "
                  f"record, {figures['segments']} segments, peak {figures['peak']:.0f} MiB", flush=True)
    for build in args.builds:
        print(f"mean {build}: {sum(rates[build]) / len(rates[build]):,.0f} docs/s over {len(rates[build])} loads")


if __name__ == "__main__":
    main()
