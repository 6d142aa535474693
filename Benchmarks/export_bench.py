#!/usr/bin/env python3
"""Getting every record back out: `quarry export` and `browse` through the daemon, release build.

Workload: the realistic catalogue of catalogue.py (real vocabulary, records of 400–800 bytes),
imported with `quarry import`. Then:
1. `quarry export INDEX -o FILE` end to end: records/s, and the peak and sampled RSS of the
   daemon (over the export only) and of the CLI, to show memory stays flat;
2. `browse` page latency (1,000 records a page) from a Python client on the socket: p50/p99;
3. the peer in the same run: reading the same records straight from the daemon's SQLite file
   with Python's sqlite3 in objectID order and writing them out, the floor any export pays,
   so the figure is a ratio to it.

    swift build -c release --product quarry
    python3 Benchmarks/export_bench.py [--count 1000000] [--binary .build/release/quarry]
"""
import argparse
import os
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "clients", "python", "src"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import catalogue  # noqa: E402
from quarry import Client  # noqa: E402


def rss_mib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


class Sampler(threading.Thread):
    """VmRSS of some processes every 20 ms, until stopped."""

    def __init__(self, pids):
        super().__init__(daemon=True)
        self.pids = pids
        self.samples = {name: [] for name in pids}
        self.done = threading.Event()

    def run(self):
        while not self.done.is_set():
            for name, pid in self.pids.items():
                value = rss_mib(pid() if callable(pid) else pid)
                if value is not None:
                    self.samples[name].append(value)
            time.sleep(0.02)

    def stop(self):
        self.done.set()
        self.join()


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--settle", type=float, default=10, help="seconds to wait after the import")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "quarry"))
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="qexp", dir="/tmp") as tmp:
        source = os.path.join(tmp, "catalogue.ndjson")
        started = time.monotonic()
        with open(source, "w") as f:
            for record in catalogue.records(args.count):
                f.write(catalogue.json.dumps(record, ensure_ascii=False) + "\n")
        size = os.path.getsize(source)
        print(f"catalogue: {args.count} records, {size / 2**20:.0f} MiB ({size / args.count:.0f} B/record), "
              f"generated in {time.monotonic() - started:.0f} s")

        sock, data = os.path.join(tmp, "q.sock"), os.path.join(tmp, "data")
        daemon = subprocess.Popen([args.binary, "serve", "--socket", sock, "--data-dir", data],
                                  stdout=subprocess.DEVNULL, stderr=open(os.path.join(tmp, "daemon.log"), "wb"))
        try:
            deadline = time.monotonic() + 30
            while not os.path.exists(sock) and time.monotonic() < deadline:
                time.sleep(0.05)
            started = time.monotonic()
            subprocess.run([args.binary, "import", "bench", source, "--socket", sock], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            took = time.monotonic() - started
            print(f"import: {took:.1f} s, {args.count / took:,.0f} records/s (quarry import, for reference)")

            # The derived index file is saved a second after the last write; let that finish first so
            # the samples below are the export's alone.
            time.sleep(args.settle)
            out = os.path.join(tmp, "export.ndjson")
            before = rss_mib(daemon.pid)
            cli = {}
            sampler = Sampler({"daemon": daemon.pid, "cli": lambda: cli.get("pid", -1)})
            sampler.start()
            started = time.monotonic()
            process = subprocess.Popen([args.binary, "export", "bench", "-o", out, "--socket", sock],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            cli["pid"] = process.pid
            process.wait()
            took = time.monotonic() - started
            sampler.stop()
            assert process.returncode == 0, "export failed"
            with open(out, "rb") as f:
                lines = sum(1 for _ in f)
            assert lines == args.count, f"exported {lines} of {args.count}"
            daemon_rss, cli_rss = sampler.samples["daemon"], sampler.samples["cli"] or [0]
            quarter = max(1, len(daemon_rss) // 4)
            quarry_rate = args.count / took
            print(f"quarry export: {took:.1f} s, {quarry_rate:,.0f} records/s, {os.path.getsize(out) / 2**20:.0f} MiB")
            print(f"  daemon RSS: {before:.0f} MiB before, peak {max(daemon_rss):.0f} MiB during, "
                  f"mean of first quarter {sum(daemon_rss[:quarter]) / quarter:.0f} MiB, "
                  f"of last quarter {sum(daemon_rss[-quarter:]) / quarter:.0f} MiB")
            print(f"  CLI RSS: peak {max(cli_rss):.0f} MiB")

            with Client.connect(sock, start=False) as client:
                latencies = []
                page = None
                while page is None or page.cursor is not None:
                    t = time.perf_counter()
                    page = client.browse("bench", page.cursor if page else None)
                    latencies.append((time.perf_counter() - t) * 1000)
                print(f"browse, 1,000 records a page, Python client: n={len(latencies)} "
                      f"p50={percentile(latencies, 50):.1f} ms p99={percentile(latencies, 99):.1f} ms")

            database = os.path.join(data, "indices", "bench", "records.sqlite")
            floor = os.path.join(tmp, "floor.ndjson")
            started = time.monotonic()
            connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
            with open(floor, "w") as f:
                for (body,) in connection.execute("SELECT body FROM records ORDER BY objectID"):
                    f.write(body + "\n")
            connection.close()
            took = time.monotonic() - started
            floor_rate = args.count / took
            print(f"peer (SQLite read in objectID order, Python sqlite3): {took:.1f} s, {floor_rate:,.0f} records/s")
            print(f"ratio quarry export / peer: {quarry_rate / floor_rate:.2f}× the rate")
        finally:
            daemon.terminate()
            daemon.wait()


if __name__ == "__main__":
    main()
