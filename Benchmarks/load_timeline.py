"""Where a load's memory goes: streams a catalogue into a fresh daemon by `saveObjects` batches, as
`peer_bench.py` does, and prints once a second the daemon's resident memory (heap and file pages), its peak
so far, and the index's segments and structure bytes (`listIndices` with `memory: true`), then goes on for
`--after` seconds once the stream ends, while the daemon merges and saves what the stream left.

    python3 Benchmarks/load_timeline.py --catalogue /tmp/cat1m.ndjson [--count 1000000] [--batch 1000] [--after 15]
"""
import argparse
import os
import shutil
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_bench  # noqa: E402  (the daemon harness and the benchmark's settings)


def print_structures(daemon):
    """The index's heap bytes by structure, and its bytes read in place, as `listIndices` counts them."""
    memory = daemon.call("listIndices", {"memory": True})["items"][0].get("memory", {})
    parts = [f"{name} {size / 2**20:.1f}" for name, size in memory.get("structures", {}).items()]
    print(f"structures (MiB, {memory.get('segments', 0)} segments): {', '.join(parts)}; "
          f"mapped {memory.get('mapped', 0) / 2**20:.1f}", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(peer_bench.ROOT, ".build", "release", "quarry"))
    parser.add_argument("--catalogue", required=True, help="an NDJSON file from catalogue.py")
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--after", type=float, default=15.0, help="seconds to keep sampling after the stream")
    args = parser.parse_args()

    lines = []
    with open(args.catalogue, "rb") as f:
        for line in f:
            lines.append(line.rstrip(b"\n"))
            if len(lines) >= args.count:
                break
    tmp = tempfile.mkdtemp(prefix="quarry-timeline-")
    daemon = peer_bench.Daemon(args.binary, os.path.join(tmp, "data"), os.path.join(tmp, "q.sock"))
    pid = daemon.process.pid
    settings = {"searchableAttributes": peer_bench.SEARCHABLE, "attributesForFaceting": peer_bench.FACETS,
                "customRanking": ["desc(popularity)"]}
    daemon.call("setSettings", {"index": "products", "settings": settings})
    requests = [b'{"jsonrpc":"2.0","id":%d,"method":"saveObjects","params":{"index":"products","objects":[' % (n + 1000)
                + b",".join(lines[i:i + args.batch]) + b"]}}\n" for n, i in enumerate(range(0, len(lines), args.batch))]
    del lines
    sent = [0]
    stop = threading.Event()

    def sample():
        monitor = peer_bench.Daemon.connect(daemon.path)
        began, second, highest = time.monotonic(), -1, 0.0
        print("seconds  records    RSS   heap   file  max(1s)  peak  segments  structures  mapped   (MiB)", flush=True)
        while not stop.is_set():
            rss = peer_bench.rss_mib(pid)
            highest = max(highest, rss)
            elapsed = time.monotonic() - began
            if int(elapsed) != second:
                second = int(elapsed)
                memory = monitor.call("listIndices", {"memory": True})["items"][0].get("memory", {})
                print(f"{elapsed:7.1f} {min(sent[0] * args.batch, args.count):8d} {rss:6.0f} "
                      f"{peer_bench.rss_mib(pid, 'RssAnon'):6.0f} {peer_bench.rss_mib(pid, 'RssFile'):6.0f} "
                      f"{highest:8.0f} {peer_bench.rss_mib(pid, 'VmHWM'):5.0f} {memory.get('segments', 0):9d} "
                      f"{memory.get('total', 0) / 2**20:11.0f} {memory.get('mapped', 0) / 2**20:7.0f}", flush=True)
                highest = 0.0
            time.sleep(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    began = time.monotonic()
    for n, request in enumerate(requests):
        daemon.call_raw(request)
        sent[0] = n + 1
    elapsed = time.monotonic() - began
    print(f"stream done: {args.count / elapsed:,.0f} docs/s, peak while loading "
          f"{peer_bench.rss_mib(pid, 'VmHWM'):.0f} MiB", flush=True)
    print_structures(daemon)
    time.sleep(args.after)
    stop.set()
    sampler.join()
    print_structures(daemon)
    print(f"peak with the merges and saves after it: {peer_bench.rss_mib(pid, 'VmHWM'):.0f} MiB", flush=True)
    daemon.stop()
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
