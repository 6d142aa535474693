#!/usr/bin/env python3
"""Quarry beside a peer, Tantivy, in the same run, on the realistic catalogue.

Quarry is measured as a client sees it: a release daemon on a Unix socket, the
catalogue imported with `importFile`, then `search` keystroke by keystroke (top 20,
default highlighting, exact counts of 3 facets). The peer is tantivy-py in this
process: the same records indexed from the same file, the same keystrokes as a
query of the same meaning (every word required in name, brand or description,
the last one as a prefix), the top 20 documents fetched, and exact counts of the
same facets by terms aggregation. Typo tolerance is off on both sides so that the
hit and facet counts can be checked equal; a typo-tolerant Quarry pass is printed
after, without a peer. Prints each figure and the ratio Quarry / peer:
indexing rate, index size on disk, serving RSS, reopen, keystroke p50/p99 (warm
passes, and the first pass after reopening). With --engine-bench, the same
keystrokes are also timed on the engine in process, to show what the daemon adds.

    swift build -c release --product quarry
    python3 -m venv /tmp/peer && /tmp/peer/bin/pip install tantivy==0.27.0   # benchmarks only
    /tmp/peer/bin/python Benchmarks/peer_bench.py --count 100000
    swift build -c release --package-path Benchmarks    # for the engine alone
    /tmp/peer/bin/python Benchmarks/peer_bench.py --count 100000 --catalogue FILE \
        --engine-bench Benchmarks/.build/release/engine-bench
"""
import argparse
import gc
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import catalogue  # noqa: E402

FACETS = ["brand", "categories.lvl0", "tags"]
# For experiments on the daemon's environment, e.g. QUARRY_BENCH_ENV=MALLOC_ARENA_MAX=2.
EXTRA_ENV = dict(item.split("=", 1) for item in os.environ.get("QUARRY_BENCH_ENV", "").split(",") if "=" in item)
SEARCHABLE = ["name", "brand", "description"]
PLAIN = re.compile(r"^[a-z]{2,}$")


def rss_mib(pid, field="VmRSS"):
    """Resident memory; field RssAnon is the heap's part, RssFile the mapped files' (index file pages touched)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(pid):
    """User and system CPU time of a process, all its threads: what indexing costs, whatever else the cores run."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def disk_mib(path):
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            try:
                total += os.path.getsize(os.path.join(root, name))
            except OSError:
                pass
    return total / (1 << 20)


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]


class Daemon:
    """A release `quarry serve` on a socket, spoken to in NDJSON."""

    def __init__(self, binary, data, path):
        self.binary, self.data, self.path = binary, data, path
        self.start()

    def start(self):
        began = time.monotonic()
        self.process = subprocess.Popen([self.binary, "serve", "--socket", self.path, "--data-dir", self.data],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        env={**os.environ, **EXTRA_ENV})
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(self.path)
                break
            except OSError:
                time.sleep(0.005)
        self.buffer = b""
        self.next_id = 0
        self.call("initialize", {})
        return time.monotonic() - began

    @classmethod
    def connect(cls, path):
        """Another connection to a running daemon (a second frontend or writer)."""
        client = cls.__new__(cls)
        client.path, client.process = path, None
        client.sock = socket.socket(socket.AF_UNIX)
        client.sock.connect(path)
        client.buffer, client.next_id = b"", 0
        client.call("initialize", {})
        return client

    def call(self, method, params, timeout=3600):
        self.next_id += 1
        self.sock.sendall(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method,
                                      "params": params}).encode() + b"\n")
        return self.reply(method, timeout)

    def call_raw(self, request, timeout=3600):
        """Sends a request already encoded (with its own id) and waits for its reply."""
        self.next_id = int(request[request.index(b'"id":') + 5:request.index(b",", request.index(b'"id":'))])
        self.sock.sendall(request)
        return self.reply("request", timeout)

    def reply(self, method, timeout):
        self.sock.settimeout(timeout)
        while True:
            newline = self.buffer.find(b"\n")
            if newline >= 0:
                line, self.buffer = self.buffer[:newline], self.buffer[newline + 1:]
                message = json.loads(line)
                if message.get("id") == self.next_id:
                    if "error" in message:
                        raise RuntimeError(f"{method}: {message['error']}")
                    return message["result"]
                continue
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise RuntimeError("the daemon closed the connection")
            self.buffer += chunk

    def stop(self):
        self.sock.close()
        self.process.terminate()
        self.process.wait()


class Peer:
    """tantivy-py, in process."""

    def __init__(self, directory):
        import tantivy
        self.tantivy = tantivy
        builder = tantivy.SchemaBuilder()
        builder.add_text_field("objectID", stored=True, tokenizer_name="raw")
        for field in SEARCHABLE:
            builder.add_text_field(field, stored=False)
        for field in FACETS:
            builder.add_text_field("f_" + field, stored=False, tokenizer_name="raw", fast=True)
        # The record is stored once, as it came, for the hits; not indexed: a text field would make each whole
        # record a term of the dictionary, which cost the peer 3.5 times its CPU (README.md).
        builder.add_bytes_field("record", stored=True, indexed=False)
        self.schema = builder.build()
        self.directory = directory
        self.index = tantivy.Index(self.schema, path=directory)

    def documents(self, lines):
        """The records parsed into tantivy documents, before the clock starts (Quarry's requests are made before too)."""
        documents = []
        for line in lines:
            record = json.loads(line)
            document = self.tantivy.Document(
                objectID=record["objectID"], name=record["name"], brand=record["brand"],
                description=record["description"], f_brand=record["brand"],
                **{"f_categories.lvl0": record["categories"]["lvl0"], "f_tags": record["tags"]})
            document.add_bytes("record", line)
            documents.append(document)
        return documents

    def load(self, documents):
        # Tantivy's defaults, as its users run it: the writer picks its threads and splits its 128 MB heap.
        writer = self.index.writer()
        for document in documents:
            writer.add_document(document)
        writer.commit()
        writer.wait_merging_threads()
        self.index.reload()

    def open(self):
        self.index = self.tantivy.Index.open(self.directory)
        self.index.reload()
        self.searcher = self.index.searcher()

    def query(self, text):
        t, Occur = self.tantivy, self.tantivy.Occur
        words = [w for w in re.split(r"[^a-z0-9]+", text.lower()) if w]
        if not words:
            return t.Query.all_query()
        clauses = []
        for position, word in enumerate(words):
            last = position == len(words) - 1 and not text.endswith(" ")
            # The last word as a prefix automaton over the term dictionary, as a Tantivy user writes it.
            per_field = [(Occur.Should, t.Query.fuzzy_term_query(self.schema, field, word, distance=0, prefix=True) if last
                          else t.Query.term_query(self.schema, field, word)) for field in SEARCHABLE]
            clauses.append((Occur.Must, t.Query.boolean_query(per_field)))
        return t.Query.boolean_query(clauses)

    def keystroke(self, text):
        query = self.query(text)
        result = self.searcher.search(query, 20, count=True)
        hits = [json.loads(self.searcher.doc(address)["record"][0]) for _, address in result.hits]
        # Quarry returns the top 100 values of each facet; the peer's top 1,000 by exact count contain them.
        # (Tantivy refuses more than 65,000 buckets, which tags pass at 1M.)
        aggregation = {f: {"terms": {"field": "f_" + f, "size": 1000, "segment_size": 5000}} for f in FACETS}
        counts = self.searcher.aggregate(query, aggregation)
        facets = {f: {b["key"]: b["doc_count"] for b in counts[f]["buckets"]} for f in FACETS}
        return result.count, hits, facets


def keystrokes(words, count, seed=3):
    """Typed queries of 1–3 real words, one keystroke at a time."""
    rng = random.Random(seed)
    typed = []
    while len(typed) < count:
        query = " ".join(rng.choice(words) for _ in range(rng.choice([1, 1, 2, 2, 3])))
        typed.extend(query[:n] for n in range(1, len(query) + 1) if not query[:n].endswith(" "))
    return typed[:count]


def quarry_keystroke(daemon, text, typos):
    params = {"index": "products", "query": text, "hitsPerPage": 20, "facets": FACETS, "maxValuesPerFacet": 100}
    if not typos:
        params["typoTolerance"] = False
    began = time.perf_counter()
    result = daemon.call("search", params)
    return time.perf_counter() - began, result


def quarry_load(args, mode, records, lines, tmp):
    """Loads the catalogue into a fresh daemon by `mode` (import, or batchN: saveObjects in batches of N sent as a
    client sends them, one request after another, each waiting for its reply), restarts it, and types the passes."""
    data = os.path.join(tmp, "data-" + mode)
    daemon = Daemon(args.binary, data, os.path.join(tmp, f"q-{mode}.sock"))
    settings = {"searchableAttributes": SEARCHABLE, "attributesForFaceting": FACETS, "customRanking": ["desc(popularity)"]}
    if mode == "import":
        began, cpu = time.monotonic(), cpu_seconds(daemon.process.pid)
        daemon.call("importFile", {"index": "products", "path": records, "settings": settings})
    else:
        size = int(mode[len("batch"):])
        daemon.call("setSettings", {"index": "products", "settings": settings})
        # The request bodies are made before the clock starts, as the peer's documents are parsed before its clock.
        requests = [b'{"jsonrpc":"2.0","id":%d,"method":"saveObjects","params":{"index":"products","objects":[' % (n + 1000)
                    + b",".join(lines[i:i + size]) + b"]}}\n" for n, i in enumerate(range(0, len(lines), size))]
        began, cpu = time.monotonic(), cpu_seconds(daemon.process.pid)
        for request in requests:
            daemon.call_raw(request)
        del requests
    index_s = time.monotonic() - began
    figures = {"mode": mode, "rate": args.count / index_s, "cpu_rate": args.count / max(0.01, cpu_seconds(daemon.process.pid) - cpu)}
    figures["segments"] = daemon.call("listIndices", {"memory": True})["items"][0]["memory"]["segments"]
    figures["load_peak"] = rss_mib(daemon.process.pid, "VmHWM")
    began = time.monotonic()
    daemon.stop()
    figures["stop_s"] = time.monotonic() - began
    # Measured here, as loaded: the mixed run below adds its records to this index.
    figures["disk"] = disk_mib(data)
    figures["sqlite"] = disk_mib_of(data, "records.sqlite")
    figures["reopen_ms"] = daemon.start() * 1000
    pid = daemon.process.pid
    figures["rss_open"] = rss_mib(pid)
    cold = [quarry_keystroke(daemon, text, False)[0] for text in TYPED]
    warm, results = [], {}
    second = None
    for _ in range(args.passes):
        times = []
        for text in TYPED:
            seconds, result = quarry_keystroke(daemon, text, False)
            times.append(seconds)
            results[text] = result
        second = second or times
        warm += times
    figures["typo"] = [quarry_keystroke(daemon, text, True)[0] for text in TYPED]
    figures.update(cold=cold, second=second, warm=warm, results=results, rss=rss_mib(pid),
                   anon=rss_mib(pid, "RssAnon"), file=rss_mib(pid, "RssFile"), peak=rss_mib(pid, "VmHWM"),
                   memory=daemon.call("listIndices", {"memory": True})["items"][0]["memory"])
    if args.mixed and mode == args.mixed_mode:
        figures["mixed"] = mixed_run(args, daemon, lines)
    daemon.stop()
    shutil.rmtree(data, ignore_errors=True)
    return figures


def mixed_run(args, daemon, lines):
    """10 frontends typing on their own connections while one writer streams saveObjects batches of 1,000 new
    records at full speed; then the same frontends for as long again with the writer stopped (idle)."""
    import threading
    stream = [line.replace(b'"objectID": "', b'"objectID": "mixed-', 1) for line in lines[:args.mixed]]
    requests = [b'{"jsonrpc":"2.0","id":%d,"method":"saveObjects","params":{"index":"products","objects":[' % (n + 1)
                + b",".join(stream[i:i + 1000]) + b"]}}\n" for n, i in enumerate(range(0, len(stream), 1000))]
    stop = threading.Event()

    def typist(k, out):
        client = Daemon.connect(daemon.path)
        position = k * 37
        while not stop.is_set():
            out.append(quarry_keystroke(client, TYPED[position % len(TYPED)], False)[0])
            position += 1
        client.sock.close()

    def phase(write):
        stop.clear()
        keys = [[] for _ in range(10)]
        threads = [threading.Thread(target=typist, args=(k, keys[k])) for k in range(10)]
        for thread in threads:
            thread.start()
        writes = []
        began = time.monotonic()
        if write:
            writer = Daemon.connect(daemon.path)
            for request in requests:
                t = time.perf_counter()
                writer.call_raw(request)
                writes.append(time.perf_counter() - t)
            writer.sock.close()
        else:
            time.sleep(args.idle_seconds)
        seconds = time.monotonic() - began
        stop.set()
        for thread in threads:
            thread.join()
        return [x for k in keys for x in k], writes, seconds

    idle, _, _ = phase(False)
    keys, writes, seconds = phase(True)
    return {"idle": idle, "keys": keys, "writes": writes, "write_rate": len(stream) / seconds}


def disk_mib_of(path, name):
    total = 0
    for root, _, files in os.walk(path):
        for file in files:
            if file.startswith(name):
                total += os.path.getsize(os.path.join(root, file))
    return total / (1 << 20)


TYPED = []


def run(args):
    with tempfile.TemporaryDirectory(prefix="qpeer", dir="/tmp") as tmp:
        records = args.catalogue or os.path.join(tmp, "catalogue.ndjson")
        vocabulary = set()
        if args.catalogue:
            with open(records, encoding="utf-8") as f:
                for line in f:
                    if len(vocabulary) >= 3000:
                        break
                    vocabulary.update(w for w in json.loads(line)["name"].lower().split() if PLAIN.match(w))
            with open(records, "rb") as f:
                args.count = sum(1 for _ in f)
        else:
            with open(records, "w") as f:
                for record in catalogue.records(args.count):
                    f.write(json.dumps(record, ensure_ascii=False) + "\n")
                    if len(vocabulary) < 3000:
                        vocabulary.update(w for w in record["name"].lower().split() if PLAIN.match(w))
        raw_mib = os.path.getsize(records) / (1 << 20)
        TYPED.extend(keystrokes(sorted(vocabulary), args.keystrokes))
        typed = TYPED
        print(f"catalogue: {args.count} records, {raw_mib:.0f} MiB of NDJSON "
              f"({os.path.getsize(records) / args.count:.0f} B a record); {len(typed)} keystrokes a pass; "
              f"load average {os.getloadavg()[0]:.2f}", flush=True)
        with open(records, "rb") as f:
            lines = [line.rstrip(b"\n") for line in f]
        # The catalogue's lines live as long as the run: kept out of the collector's sight, as otherwise a full
        # collection walked them inside a timed keystroke (tens of ms, once in a pass; see README.md).
        gc.freeze()
        ms = lambda values, p: percentile(values, p) * 1000
        runs = {}
        # Quarry's own figures first, so a failing peer does not lose them.
        for mode in args.modes.split(","):
            q = runs[mode] = quarry_load(args, mode, records, lines, tmp)
            print(f"quarry {mode}: {q['rate']:,.0f} docs/s ({q['cpu_rate']:,.0f} per CPU second), {q['segments']} segment(s) after loading, peak "
                  f"{q['load_peak']:.0f} MiB while loading, stop {q['stop_s']:.1f} s; restarted: RSS {q['rss_open']:.0f} → "
                  f"{q['rss']:.0f} MiB (heap {q['anon']:.0f}, mapped {q['file']:.0f}), peak {q['peak']:.0f} MiB; first pass "
                  f"{ms(q['cold'], 0.5):.2f}/{ms(q['cold'], 0.99):.2f} ms, second {ms(q['second'], 0.5):.2f}/"
                  f"{ms(q['second'], 0.99):.2f} ms; disk {q['disk']:.0f} MiB (records {q['sqlite']:.0f}); "
                  f"load average {os.getloadavg()[0]:.2f}", flush=True)
            if "mixed" in q:
                m = q["mixed"]
                print(f"quarry {mode} mixed: idle keystrokes p50/p99 {ms(m['idle'], 0.5):.2f}/{ms(m['idle'], 0.99):.2f} ms "
                      f"({len(m['idle'])}); while a writer streams batches of 1,000: keystrokes "
                      f"{ms(m['keys'], 0.5):.2f}/{ms(m['keys'], 0.99):.2f} ms ({len(m['keys'])}), batches "
                      f"{ms(m['writes'], 0.5):.1f}/{ms(m['writes'], 0.99):.1f} ms, {m['write_rate']:,.0f} docs/s", flush=True)
        first = runs[args.modes.split(",")[0]]
        q_results = first["results"]

        peer_dir = os.path.join(tmp, "tantivy")
        os.mkdir(peer_dir)
        baseline = rss_mib(os.getpid())
        peer = Peer(peer_dir)
        documents = peer.documents(lines)
        began, cpu = time.monotonic(), time.process_time()
        peer.load(documents)
        p_index_s = time.monotonic() - began
        p_cpu_rate = args.count / max(0.01, time.process_time() - cpu)
        del peer, documents
        began = time.monotonic()
        peer = reopen_peer(peer_dir)
        p_reopen = time.monotonic() - began
        p_cold = []
        for text in typed:
            began = time.perf_counter()
            peer.keystroke(text)
            p_cold.append(time.perf_counter() - began)
        p_warm, mismatches = [], []
        for _ in range(args.passes):
            for text in typed:
                began = time.perf_counter()
                count, hits, facets = peer.keystroke(text)
                p_warm.append(time.perf_counter() - began)
                mine = q_results[text]
                if mine["nbHits"] != count:
                    mismatches.append(f"{text!r}: nbHits {mine['nbHits']} vs {count}")
                for facet in FACETS:
                    for value, n in (mine.get("facets", {}).get(facet) or {}).items():
                        if facets[facet].get(value) != n:
                            mismatches.append(f"{text!r}: {facet}={value} {n} vs {facets[facet].get(value)}")
        p_rss = rss_mib(os.getpid()) - baseline
        p_disk = disk_mib(peer_dir)

    def row(label, quarry, peer, unit, fmt="{:.1f}"):
        ratio = quarry / peer if peer else float("nan")
        print(f"| {label} | {fmt.format(quarry)} {unit} | {fmt.format(peer)} {unit} | {ratio:.2f}× |")

    print(f"\nload average after the run: {os.getloadavg()}")
    print("\n| | " + " | ".join(f"Quarry {m}" for m in runs) + " | Tantivy |\n|---|" + "---|" * (len(runs) + 1))
    def line(label, values, peer_value=""):
        print(f"| {label} | " + " | ".join(values) + f" | {peer_value} |")
    line("indexing, docs/s", [f"{q['rate']:,.0f}" for q in runs.values()], f"{args.count / p_index_s:,.0f}")
    line("indexing, docs per CPU second (all threads)", [f"{q['cpu_rate']:,.0f}" for q in runs.values()], f"{p_cpu_rate:,.0f}")
    line("segments after loading", [str(q["segments"]) for q in runs.values()], "")
    line("peak RSS while loading, MiB", [f"{q['load_peak']:.0f}" for q in runs.values()], "")
    line("stop after loading (final merge and save), s", [f"{q['stop_s']:.1f}" for q in runs.values()], "")
    line("restarted: segments served", [str(q["memory"]["segments"]) for q in runs.values()], "")
    line("restarted: RSS after open → after the passes, MiB", [f"{q['rss_open']:.0f} → {q['rss']:.0f}" for q in runs.values()],
         f"{p_rss:.0f} (process growth)")
    line("restarted: heap / mapped, MiB", [f"{q['anon']:.0f} / {q['file']:.0f}" for q in runs.values()], "")
    line("restarted: peak RSS, MiB", [f"{q['peak']:.0f}" for q in runs.values()], "")
    line("first pass after restart p50 / p99, ms", [f"{ms(q['cold'], 0.5):.2f} / {ms(q['cold'], 0.99):.2f}" for q in runs.values()],
         f"{ms(p_cold, 0.5):.2f} / {ms(p_cold, 0.99):.2f}")
    line("second pass p50 / p99, ms", [f"{ms(q['second'], 0.5):.2f} / {ms(q['second'], 0.99):.2f}" for q in runs.values()],
         f"{ms(p_warm, 0.5):.2f} / {ms(p_warm, 0.99):.2f} (warm passes)")
    line("on disk (records), MiB", [f"{q['disk']:.0f} ({q['sqlite']:.0f})" for q in runs.values()], f"{p_disk:.0f}")
    line("reopen, ms", [f"{q['reopen_ms']:.0f}" for q in runs.values()], f"{p_reopen * 1000:.0f}")
    q_warm, q_rss, q_memory = first["warm"], first["rss"], first["memory"]
    q_rss_parts = (first["anon"], first["file"])
    q_typo = first["typo"]
    print(f"\nQuarry's serving memory by structure ({args.modes.split(',')[0]}; `listIndices` with `memory: true`, after the passes):\n")
    print("| structure | MiB | share of RSS |\n|---|---|---|")
    for name, size in sorted(q_memory["structures"].items(), key=lambda item: -item[1]):
        print(f"| {name} | {size / (1 << 20):.1f} | {size / (1 << 20) / q_rss:.0%} |")
    print(f"| mapped files' pages resident (the index file's, see below; the binary's and libraries') | "
          f"{q_rss_parts[1]:.1f} | {q_rss_parts[1] / q_rss:.0%} |")
    other = q_rss - q_memory["total"] / (1 << 20) - q_rss_parts[1]
    print(f"| everything else on the heap (allocator slack, SQLite page caches, stacks) | {other:.1f} | {other / q_rss:.0%} |")
    mapped = q_memory.get("mapped", 0) / (1 << 20)
    print(f"\nRead in place from the index file: {mapped:.1f} MiB, resident only as far as searches touched it")
    print(f"{q_memory['segments']} segment(s); neighbour rows kept: {q_memory['neighborRows']:,} of at most "
          f"{q_memory['neighborRowLimit']:,}")
    slowest = sorted(zip(q_warm, [t for _ in range(args.passes) for t in typed]), reverse=True)[:5]
    print("\nQuarry's slowest warm keystrokes: " + ", ".join(
        f"{text!r} {seconds * 1000:.1f} ms ({q_results[text]['nbHits']:,} hits)" for seconds, text in slowest))
    print(f"\nQuarry with typo tolerance (no peer): p50 {ms(q_typo, 0.5):.2f} ms, p99 {ms(q_typo, 0.99):.2f} ms")
    print(f"serving RSS / raw JSON: Quarry {q_rss / raw_mib:.2f}×; Tantivy's RSS is this Python process's growth")
    checked = len(typed) * args.passes
    print(f"hit and facet counts: {checked - len(set(m.split(':')[0] for m in mismatches))} of {checked} keystrokes "
          f"agree" + (f"; first differences: {mismatches[:5]}" if mismatches else ""))
    if args.engine_bench:
        engine_alone(args, typed, ms(q_warm, 0.5), ms(q_warm, 0.99))


def engine_alone(args, typed, daemon_p50, daemon_p99):
    """The same keystrokes on the engine in process (engine-bench), to show what the daemon adds."""
    if not args.catalogue:
        sys.exit("--engine-bench needs --catalogue (the engine reads the same file)")
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as keys:
        keys.write("\n".join(typed) + "\n")
    try:
        output = subprocess.run([args.engine_bench, "realistic", args.catalogue, keys.name, str(args.passes)],
                                check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(keys.name)
    print("\n" + output.strip())
    match = re.search(r"p50 ([0-9.]+) ms, p99 ([0-9.]+) ms", output)
    if match:
        p50, p99 = float(match.group(1)), float(match.group(2))
        print(f"the daemon adds (client on the socket, minus the engine in process): p50 {daemon_p50 - p50:+.2f} ms, "
              f"p99 {daemon_p99 - p99:+.2f} ms")


def reopen_peer(directory):
    peer = Peer.__new__(Peer)
    import tantivy
    peer.tantivy = tantivy
    peer.directory = directory
    peer.open()
    peer.schema = peer.index.schema
    return peer


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "quarry"))
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--catalogue", help="an NDJSON file from catalogue.py to use instead of generating one")
    parser.add_argument("--keystrokes", type=int, default=300)
    parser.add_argument("--passes", type=int, default=2, help="warm passes")
    parser.add_argument("--modes", default="import,batch5000,batch1000",
                        help="how Quarry is loaded, each into a fresh daemon: import (importFile) and batchN (saveObjects, N a batch)")
    parser.add_argument("--mixed", type=int, default=50_000,
                        help="records the writer streams in the mixed run (0: no mixed run)")
    parser.add_argument("--mixed-mode", default="import", help="the loaded index the mixed run writes to")
    parser.add_argument("--idle-seconds", type=float, default=5.0, help="how long the mixed run's frontends type with no writer")
    parser.add_argument("--engine-bench", help="engine-bench binary (swift build -c release --package-path Benchmarks): "
                        "also time the same keystrokes on the engine in process")
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        sys.exit(f"no binary at {args.binary}: swift build -c release --product quarry")
    try:
        import tantivy  # noqa: F401
    except ImportError:
        sys.exit("the peer needs tantivy: python3 -m venv /tmp/peer && /tmp/peer/bin/pip install tantivy==0.27.0")
    run(args)


if __name__ == "__main__":
    main()
