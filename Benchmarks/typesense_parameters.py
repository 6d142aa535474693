#!/usr/bin/env python3
"""Which parameters of the daemon's fast `multi_search` bodies cost Typesense its time (issue 30)?

One Typesense 0.24.1 node (Tests/EndToEnd/typesense_nodes.py), the realistic catalogue of catalogue.py
imported once with `importFile`, and the picker session of backend_bench.py --typing. For each typed
keystroke the daemon's fast body (its first `multi_search`, without `max_candidates`) is captured
through backend_bench's counting relay, then sent straight to the node over one keep-alive
connection: (a) as sent, (b) Typesense's defaults for the same query (q, query_by, per_page 20,
facet_by of the same facets: one search), and (c) variants of (a) each moving ONE parameter back to
Typesense's default (the key left out of every search of the body) or dropping one part of the body.
Variants are interleaved keystroke by keystroke (their order rotates with the keystroke), over
several passes. Per variant and word length: wall time of the HTTP request and the sum of
Typesense's own `search_time_ms` over the body's searches, p50 / p99, and the response size.

    swift build -c release --product quarry
    python3 Benchmarks/typesense_parameters.py --count 100000 --keystrokes 60 --passes 3
"""
import argparse
import collections
import json
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import backend_bench as bench  # noqa: E402
import catalogue  # noqa: E402
from peer_bench import PLAIN, keystrokes  # noqa: E402

import typesense_nodes  # noqa: E402  (on the path backend_bench adds)

HIGHLIGHT = ("highlight_fields", "highlight_full_fields", "highlight_start_tag", "highlight_end_tag",
             "highlight_affix_num_tokens")


def without(*keys):
    return lambda searches: [{k: v for k, v in s.items() if k not in keys} for s in searches]


def facet_without(search, field):
    fields = [f for f in search.get("facet_by", "").split(",") if f and f != field]
    rest = {k: v for k, v in search.items() if k not in ("facet_by", "max_facet_values")}
    return dict(rest, facet_by=",".join(fields), max_facet_values=search["max_facet_values"]) if fields else rest


def cap(search, old, new):
    return dict(search, max_facet_values=new) if search.get("max_facet_values") == old else search


def defaults(searches):
    hits = searches[0]
    plain = {k: hits[k] for k in ("collection", "q", "query_by", "facet_by") if k in hits}
    return [dict(plain, per_page=20)]


VARIANTS = [
    ("(a) as sent", lambda s: s),
    ("(b) Typesense defaults: q, query_by, per_page 20, facet_by", defaults),
    ("hits search alone (other searches of the body dropped)", lambda s: s[:1]),
    ("the hits searcher's searches alone (first 2)", lambda s: s[:2]),
    ("the facets searcher's searches alone (last 2)", lambda s: s[2:]),
    ("no f_tags in facet_by (36k distinct values)", lambda s: [facet_without(x, "f_tags") for x in s]),
    ("max_facet_values 300 → 100 (no FacetCut margin)", lambda s: [cap(x, 300, 100) for x in s]),
    ("max_facet_values 1,000,000 → 300 (facets searcher)", lambda s: [cap(x, 1_000_000, 300) for x in s]),
    ("max_facet_values default (10)", without("max_facet_values")),
    ("no facet_by", without("facet_by", "max_facet_values")),
    ("drop_tokens_threshold default (1)", without("drop_tokens_threshold")),
    ("typo_tokens_threshold default (1)", without("typo_tokens_threshold")),
    ("split_join_tokens default (fallback)", without("split_join_tokens")),
    ("enable_overrides default (true)", without("enable_overrides")),
    ("prioritize_exact_match default (true)", without("prioritize_exact_match")),
    ("sort_by default (text match)", without("sort_by")),
    ("highlight parameters default", without(*HIGHLIGHT)),
    ("highlight_full_fields default (none)", without("highlight_full_fields")),
    ("include/exclude_fields default (all fields)", without("include_fields", "exclude_fields")),
    ("per_page default (10)", without("per_page")),
    ("filter_by default (none)", without("filter_by")),
    ("group_by default (none)", without("group_by", "group_limit")),
    ("num_typos default (2)", without("num_typos")),
    ("min_len_1typo/2typo default (4/7)", without("min_len_1typo", "min_len_2typo")),
    ("prefix default (true)", without("prefix")),
    ("query_by_weights default (equal)", without("query_by_weights")),
    ("exhaustive_search / search_cutoff default", without("exhaustive_search", "search_cutoff_ms")),
]


def post(direct, body):
    """(wall seconds, sum of search_time_ms, response bytes)."""
    began = time.perf_counter()
    direct.connection.request("POST", "/multi_search", body=body, headers=direct.headers)
    response = direct.connection.getresponse()
    raw = response.read()
    wall = time.perf_counter() - began
    if response.status != 200:
        raise RuntimeError(f"multi_search: HTTP {response.status}: {raw[:200]!r}")
    results = json.loads(raw)["results"]
    failed = [r for r in results if "error" in r]
    if failed:
        raise RuntimeError(f"a search failed: {failed[0]}")
    return wall, sum(r.get("search_time_ms", 0) for r in results), len(raw)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(bench.ROOT, ".build", "release", "quarry"))
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--keystrokes", type=int, default=60)
    parser.add_argument("--passes", type=int, default=3, help="timed passes, after one warm-up pass")
    parser.add_argument("--dump", help="write the captured fast bodies (JSON) here")
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        sys.exit(f"no binary at {args.binary}: swift build -c release --product quarry")
    binary = typesense_nodes.typesense_binary()

    began = time.monotonic()
    print(f"machine: {bench.machine()}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
          f"load average {bench.load_average()}")
    with tempfile.TemporaryDirectory(prefix="qparams", dir="/tmp") as tmp:
        records = os.path.join(tmp, "catalogue.ndjson")
        vocabulary, tops = set(), collections.Counter()
        with open(records, "w") as f:
            for record in catalogue.records(args.count):
                f.write(json.dumps(record, ensure_ascii=False) + "\n")
                tops[record["categories"]["lvl0"]] += 1
                if len(vocabulary) < 3000:
                    vocabulary.update(w for w in record["name"].lower().split() if PLAIN.match(w))
        typed = keystrokes(sorted(vocabulary), args.keystrokes)
        categories = [value for value, _ in tops.most_common(2)]

        with typesense_nodes.TypesenseCluster(1, binary=binary) as cluster:
            daemon = bench.Daemon(args.binary, os.path.join(tmp, "import"), cluster.serve_args())
            try:
                daemon.client.call("importFile", {"index": bench.INDEX, "path": records, "settings": bench.SETTINGS})
            finally:
                daemon.stop()
            print(f"imported {args.count:,} records at {time.monotonic() - began:.0f} s", flush=True)
            captured = bench.capture_bodies(args.binary, tmp, "params", cluster, typed, categories)
            fast = {}
            for text, bodies in captured.items():
                first = [b for b in bodies["session"] if "max_candidates" not in json.loads(b)["searches"][0]]
                if first:
                    fast[text] = json.loads(first[0])["searches"]
            if args.dump:
                with open(args.dump, "w") as f:
                    json.dump(fast, f, indent=1, ensure_ascii=False)
            sample = next(iter(fast.values()))
            print(f"a fast body ({len(sample)} searches), its hits search:\n{json.dumps(sample[0], ensure_ascii=False)}")
            for other in sample[1:]:
                print(f"another search: {json.dumps(other, ensure_ascii=False)}")

            direct = bench.DirectNode(cluster.nodes[0], cluster.api_key_file)
            bodies = {text: [json.dumps({"searches": make(searches)}).encode() for _, make in VARIANTS]
                      for text, searches in fast.items()}
            unchanged = {label for i, (label, _) in enumerate(VARIANTS)
                         if i > 0 and all(b[i] == b[0] for b in bodies.values())}
            walls = collections.defaultdict(lambda: collections.defaultdict(list))
            servers = collections.defaultdict(lambda: collections.defaultdict(list))
            sizes = collections.defaultdict(list)
            load_before = bench.load_average()
            for n in range(args.passes + 1):
                for k, text in enumerate(typed):
                    if text not in bodies:
                        continue
                    order = list(range(len(VARIANTS)))
                    order = order[k % len(order):] + order[:k % len(order)]
                    for i in order:
                        wall, server, size = post(direct, bodies[text][i])
                        if n == 0:
                            continue  # the warm-up pass
                        for group in (bench.word_length(text), "all"):
                            walls[i][group].append(wall)
                            servers[i][group].append(server / 1000)
                        sizes[i].append(size)
            direct.close()
            load_after = bench.load_average()

    groups = ["1", "2", "3", "4+", "all"]
    print(f"\n{args.count:,} records; {len(fast)} distinct keystrokes of {args.keystrokes}, {args.passes} timed passes "
          f"after a warm-up pass; load average {load_before} → {load_after}; times in ms, p50 / p99\n")
    print("| variant | " + " | ".join(f"wall, {g} letters" if g != "all" else "wall, all" for g in groups)
          + " | search_time_ms, all | response KiB |")
    print("|---|" + "---|" * (len(groups) + 2))
    for i, (label, _) in enumerate(VARIANTS):
        if label in unchanged:
            continue
        cells = [f"{bench.ms(walls[i][g], 0.5):.1f} / {bench.ms(walls[i][g], 0.99):.1f}" if walls[i][g] else "–"
                 for g in groups]
        server = f"{bench.ms(servers[i]['all'], 0.5):.1f} / {bench.ms(servers[i]['all'], 0.99):.1f}"
        print(f"| {label} | " + " | ".join(cells) + f" | {server} | {sum(sizes[i]) / len(sizes[i]) / 1024:.1f} |")
    if unchanged:
        print(f"\nNot in the fast bodies (so no variant): {', '.join(sorted(unchanged))}")
    print(f"\nwhole run: {time.monotonic() - began:.0f} s")


if __name__ == "__main__":
    main()
