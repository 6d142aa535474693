#!/usr/bin/env python3
"""Single-record writes as an editor plugin makes them: a release `quarry serve` imports the first `--base`
records of a catalogue (`catalogue.py`), then takes `--writes` `saveObjects` of one new record each, one after
another, each waiting for its reply. Prints the time to acknowledge (p50/p90/p99), the daemon's CPU a write,
the segments left, and a pass of keystrokes before and after the writes (p50/p99).

    python3 Benchmarks/single_writes.py --binary .build/release/quarry --catalogue cat.ndjson
"""
import argparse
import json
import os
import tempfile
import time

import peer_bench as pb


def ms(values, p):
    return pb.percentile(values, p) * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True, help="a release build of quarry")
    parser.add_argument("--catalogue", required=True, help="NDJSON from catalogue.py, at least base + writes records")
    parser.add_argument("--base", type=int, default=100_000, help="records imported first")
    parser.add_argument("--writes", type=int, default=2_000, help="single-record saveObjects after the import")
    parser.add_argument("--keystrokes", type=int, default=300, help="keystrokes a pass")
    args = parser.parse_args()

    base, extra, vocabulary = [], [], set()
    with open(args.catalogue, "rb") as f:
        for line in f:
            if len(base) < args.base:
                base.append(line)
                if len(vocabulary) < 3000:
                    vocabulary.update(w for w in json.loads(line)["name"].lower().split() if pb.PLAIN.match(w))
            elif len(extra) < args.writes:
                extra.append(json.loads(line))
            else:
                break
    if len(extra) < args.writes:
        parser.error(f"the catalogue holds {len(base) + len(extra)} records, fewer than base + writes")
    typed = pb.keystrokes(sorted(vocabulary), args.keystrokes)

    with tempfile.TemporaryDirectory(prefix="qsingle", dir="/tmp") as tmp:
        records = os.path.join(tmp, "base.ndjson")
        with open(records, "wb") as f:
            f.writelines(base)
        daemon = pb.Daemon(args.binary, os.path.join(tmp, "data"), os.path.join(tmp, "q.sock"))
        settings = {"searchableAttributes": pb.SEARCHABLE, "attributesForFaceting": pb.FACETS,
                    "customRanking": ["desc(popularity)"]}
        daemon.call("importFile", {"index": "products", "path": records, "settings": settings})
        time.sleep(2)  # the import's save

        def keystrokes():
            times = [pb.quarry_keystroke(daemon, text, False)[0] for text in typed]
            return ms(times, 0.5), ms(times, 0.99)

        before = keystrokes()
        cpu = pb.cpu_seconds(daemon.process.pid)
        times = []
        for record in extra:
            began = time.perf_counter()
            daemon.call("saveObjects", {"index": "products", "objects": [record]})
            times.append(time.perf_counter() - began)
        cpu_ms = (pb.cpu_seconds(daemon.process.pid) - cpu) / args.writes * 1000
        segments = daemon.call("listIndices", {"memory": True})["items"][0]["memory"]["segments"]
        after = keystrokes()
        daemon.stop()
    print(f"{args.writes} single-record saveObjects into {args.base} records: acknowledged p50 "
          f"{ms(times, 0.5):.2f} / p90 {ms(times, 0.9):.2f} / p99 {ms(times, 0.99):.2f} ms; "
          f"daemon CPU {cpu_ms:.2f} ms a write; {segments} segments after; keystrokes p50/p99 "
          f"{before[0]:.2f}/{before[1]:.2f} ms before, {after[0]:.2f}/{after[1]:.2f} ms after")


if __name__ == "__main__":
    main()
