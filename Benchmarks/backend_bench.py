#!/usr/bin/env python3
"""Per-keystroke session latency on each backend: the embedded engine, one
Typesense 0.24.1 node, and a 3-node Typesense cluster (the daemon given all 3).

The same records (the realistic catalogue of catalogue.py, 20,000 by default)
are imported with `importFile` into each backend, and the same keystrokes are
typed into the same session, as a picker asks: a hits searcher (top 20, default
highlighting, counts of `brand`, `categories.lvl0` and `tags`), a facets
searcher (the `brand` values matching the query) and an or-group of two
top-level categories, so `categories.lvl0` is counted disjunctively. Latency is
what a Python client on the Unix socket sees: `setQuery` written until the
`resultsUpdated` of the version its reply names is read.

HTTP requests per keystroke are counted by a second daemon, pointed at the same
nodes through a relay per node that parses each HTTP/1.1 request it forwards
(method, path, and the searches inside a `multi_search` body). Typesense 0.24.1
has no request counters to read instead: `/stats.json` holds only
per-second rates over a recent window and `/metrics.json` only memory, CPU,
disk and network totals. The relay is used for counting only, never timed.

    swift build -c release --product quarry
    python3 Benchmarks/backend_bench.py [--count 20000] [--keystrokes 200] [--passes 2]

`--typing` measures issue 30's goals instead, on Typesense only (one node, then 3): each keystroke is
typed into the same picker session, timed to its first `resultsUpdated` (fast counts) and to its
exact completion (the second push of the same version; the first when that is already exact),
followed by a one-shot `search` with the hits searcher's parameters (exact counts). Typesense is
queried directly in the same run, interleaved, with the very `multi_search` bodies the daemon sent
for that keystroke (captured beforehand through the counting relays of a second daemon): the
session's fast request, its exact request, and the one-shot search's request(s), over one
keep-alive connection. Figures are split by the length of the word being typed (1, 2, 3, 4+). A
`multi_search` of counts without text only is the daemon refreshing a count it keeps (CountCache), off
the keystroke: it is told apart, counted on its own, and never taken for the keystroke's request.

    python3 Benchmarks/backend_bench.py --typing --count 100000 --keystrokes 120 --passes 2

Needs the Typesense binary of scripts/python-env (or $QUARRY_TYPESENSE_BIN).
Every node and daemon it starts is stopped at the end, also on failure.
"""
import argparse
import collections
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "Tests", "EndToEnd"))
import catalogue  # noqa: E402
from peer_bench import PLAIN, keystrokes, percentile  # noqa: E402
from session_latency import Client  # noqa: E402
import typesense_nodes  # noqa: E402

INDEX = "products"
FACETS = ["brand", "categories.lvl0", "tags"]
SETTINGS = {"searchableAttributes": ["name", "brand", "description"],
            "attributesForFaceting": ["searchable(brand)", "categories.lvl0", "tags"],
            "customRanking": ["desc(popularity)"]}
REPLY_TIMEOUT = 120.0


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def machine():
    fields = {}
    for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
    return f"{fields.get('Model name', '?')}, {fields.get('CPU(s)', '?')} CPUs"


def rss_mib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class Daemon:
    """A release `quarry serve` on a Unix socket with its own data dir and an
    empty config home, so a user's config.json cannot pick the backend."""

    def __init__(self, binary, directory, extra_args=()):
        os.makedirs(directory)
        self.socket_path = os.path.join(directory, "q.sock")
        config_home = os.path.join(directory, "xdg")
        os.makedirs(config_home)
        environment = {k: v for k, v in os.environ.items() if not k.startswith("QUARRY_")}
        environment["XDG_CONFIG_HOME"] = config_home
        self.log_path = os.path.join(directory, "daemon.log")
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                [binary, "serve", "--socket", self.socket_path, "--data-dir", os.path.join(directory, "data"),
                 *extra_args], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log, env=environment)
        deadline = time.monotonic() + 30
        while True:
            try:
                self.client = Client(self.socket_path)
                break
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the daemon did not start; its log:\n{self.log()}")
                time.sleep(0.01)
        self.client.sock.settimeout(REPLY_TIMEOUT)
        self.capabilities = self.client.call("initialize")["capabilities"]

    def log(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()[-4000:]

    def stop(self):
        try:
            self.client.sock.close()
        except OSError:
            pass
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class CountingRelay:
    """Forwards 127.0.0.1:port to one node's API and counts the HTTP/1.1
    requests on the way: per method and path, and the searches each
    `multi_search` body holds. Headers go on before the body is read, so a
    client waiting for `100 Continue` is not held up."""

    def __init__(self, upstream):
        host, port = upstream.rsplit(":", 1)
        self.upstream = (host, int(port))
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.address = f"127.0.0.1:{self.listener.getsockname()[1]}"
        self.lock = threading.Lock()
        self.requests = collections.Counter()
        self.searches = 0
        self.bodies = None  # a list to keep each multi_search body in, for a look at what a keystroke asks
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def snapshot(self):
        with self.lock:
            return collections.Counter(self.requests), self.searches

    def close(self):
        self.closed = True
        self.listener.close()

    def _accept(self):
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._relay, args=(client,), daemon=True).start()

    def _relay(self, client):
        try:
            upstream = socket.create_connection(self.upstream)
        except OSError:
            client.close()
            return
        threading.Thread(target=self._pipe, args=(upstream, client), daemon=True).start()
        reader = client.makefile("rb")
        try:
            while True:
                line = reader.readline()
                if not line:
                    break
                head = [line]
                length, chunked = 0, False
                while True:
                    header = reader.readline()
                    head.append(header)
                    if header in (b"\r\n", b"\n", b""):
                        break
                    name, _, value = header.decode("latin-1").partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value.strip())
                    elif name.strip().lower() == "transfer-encoding" and "chunked" in value.lower():
                        chunked = True
                upstream.sendall(b"".join(head))
                body = self._forward_body(reader, upstream, length, chunked)
                method, target = line.decode("latin-1").split()[:2]
                path = target.split("?", 1)[0]
                searches = 0
                if path == "/multi_search":
                    try:
                        searches = len(json.loads(body).get("searches", []))
                        if self.bodies is not None:
                            self.bodies.append(body)
                    except ValueError:
                        pass
                with self.lock:
                    self.requests[f"{method} {path}" + (f" ({searches} searches)" if searches else "")] += 1
                    self.searches += searches
        except OSError:
            pass
        finally:
            for s in (client, upstream):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()

    @staticmethod
    def _forward_body(reader, upstream, length, chunked):
        if not chunked:
            body = reader.read(length) if length else b""
            upstream.sendall(body)
            return body
        body = b""
        while True:
            size_line = reader.readline()
            upstream.sendall(size_line)
            size = int(size_line.split(b";")[0].strip() or b"0", 16)
            chunk = reader.read(size + 2)  # the data and its CRLF
            upstream.sendall(chunk)
            body += chunk[:size]
            if size == 0:
                return body

    @staticmethod
    def _pipe(source, sink):
        try:
            while True:
                data = source.recv(1 << 16)
                if not data:
                    break
                sink.sendall(data)
        except OSError:
            pass
        finally:
            try:
                sink.shutdown(socket.SHUT_WR)
            except OSError:
                pass


class Picker:
    """One session as a picker opens it; `keystroke` types one state of the search box."""

    def __init__(self, client, name, categories):
        self.client, self.name = client, name
        client.call("openSession", {"session": name, "searchers": [
            {"type": "hits", "index": INDEX, "hitsPerPage": 20, "facets": FACETS},
            {"type": "facets", "index": INDEX, "attribute": "brand"}]})
        self._settle(client.call("setFilters", {"session": name, "group": {"name": "category", "operator": "or"},
                                                "filters": [{"attribute": "categories.lvl0", "value": v}
                                                            for v in categories]})["stateVersion"])

    def _settle(self, version):
        pushed = self.client.wait(lambda m: m.get("method") == "resultsUpdated"
                                  and m["params"]["session"] == self.name and m["params"]["stateVersion"] >= version)
        self.client.pending = [m for m in self.client.pending if "id" in m]
        if pushed["params"]["stateVersion"] != version:
            raise RuntimeError(f"results for version {pushed['params']['stateVersion']}, wanted {version}")
        failed = [r for r in pushed["params"]["results"] if "error" in r]
        if failed:
            raise RuntimeError(f"a searcher failed: {failed[0]['error']}")
        return pushed["params"]["results"]

    def keystroke(self, text):
        """(seconds from setQuery to its resultsUpdated, nbHits, brand values found)."""
        began = time.perf_counter()
        version = self.client.call("setQuery", {"session": self.name, "query": text})["stateVersion"]
        results = self._settle(version)
        seconds = time.perf_counter() - began
        return seconds, results[0]["nbHits"], len(results[1]["facetHits"])


def search_params(text, categories):
    """The hits searcher's request as a one-shot `search` (exact counts)."""
    return {"index": INDEX, "query": text, "hitsPerPage": 20, "facets": FACETS,
            "disjunctiveFilters": {"categories.lvl0": " OR ".join(f'categories.lvl0:"{v}"' for v in categories)}}


def typed_keystroke(picker, text):
    """(seconds to the first resultsUpdated, seconds to the exact one, whether the first was an estimate)."""
    client, name = picker.client, picker.name
    began = time.perf_counter()
    version = client.call("setQuery", {"session": name, "query": text})["stateVersion"]
    ours = lambda m: m.get("method") == "resultsUpdated" and m["params"]["session"] == name
    first = client.wait(lambda m: ours(m) and m["params"]["stateVersion"] >= version)
    first_s = time.perf_counter() - began
    if first["params"]["stateVersion"] != version:
        raise RuntimeError(f"results for version {first['params']['stateVersion']}, wanted {version}")
    estimate = first["params"].get("exhaustive") is False
    exact_s = first_s
    if estimate:
        client.wait(lambda m: ours(m) and m["params"]["stateVersion"] == version and m["params"]["exhaustive"])
        exact_s = time.perf_counter() - began
    client.pending = [m for m in client.pending if "id" in m]
    return first_s, exact_s, estimate


class DirectNode:
    """Typesense itself, over one keep-alive connection: a `multi_search` body as the daemon sent it."""

    def __init__(self, address, key_file):
        import http.client
        host, port = address.rsplit(":", 1)
        self.connection = http.client.HTTPConnection(host, int(port), timeout=REPLY_TIMEOUT)
        with open(key_file) as f:
            self.headers = {"X-TYPESENSE-API-KEY": f.read().strip(), "Content-Type": "application/json"}

    def post(self, body):
        began = time.perf_counter()
        self.connection.request("POST", "/multi_search", body=body, headers=self.headers)
        response = self.connection.getresponse()
        response.read()
        if response.status != 200:
            raise RuntimeError(f"multi_search: HTTP {response.status}")
        return time.perf_counter() - began

    def close(self):
        self.connection.close()


def word_length(text):
    n = len(text.split(" ")[-1])
    return "4+" if n >= 4 else str(n)


def counts_refresh(body):
    """Whether a multi_search only asks counts without text: the daemon refreshing counts it keeps."""
    return all(search.get("q") == "*" and search.get("per_page") == 0 for search in json.loads(body)["searches"])


def capture_bodies(binary, tmp, label, cluster, typed, categories):
    """Per keystroke, the multi_search bodies a daemon sends for its session (fast, then exact) and
    for the one-shot search, and how many HTTP requests each took, through counting relays."""
    relays = [CountingRelay(node) for node in cluster.nodes]
    args = ["--typesense-nodes", ",".join(r.address for r in relays),
            "--typesense-api-key-file", cluster.api_key_file, "--typesense-indices", "all"]
    daemon = Daemon(binary, os.path.join(tmp, label.replace(" ", "-") + "-captured"), args)
    bodies = []
    for relay in relays:
        relay.bodies = bodies
    total = lambda: sum(sum(r.snapshot()[0].values()) for r in relays)
    captured = {}
    try:
        picker = Picker(daemon.client, "captured", categories)
        for text in typed[:5]:  # the daemon's first reads of the catalogue, not a keystroke's cost
            typed_keystroke(picker, text)
        for text in typed:
            if text in captured:
                continue
            mark, requests = len(bodies), total()
            first_s, exact_s, estimate = typed_keystroke(picker, text)
            time.sleep(0.01)  # the relay counts a request after forwarding it
            # A kept count's refresh (CountCache) is the daemon's own, off the keystroke: not one of its requests.
            refreshes = [body for body in bodies[mark:] if counts_refresh(body)]
            session_bodies = [body for body in bodies[mark:] if not counts_refresh(body)]
            session_requests = total() - requests - len(refreshes)
            mark, requests = len(bodies), total()
            daemon.client.call("search", search_params(text, categories))
            time.sleep(0.01)
            # The first answer is the fast multi_search's: its hits search has no `max_candidates` (TextQuery);
            # the exact ones do, and so does the facets searcher's search in either.
            fast = [body for body in session_bodies if "max_candidates" not in json.loads(body)["searches"][0]]
            captured[text] = {"session": session_bodies, "session_requests": session_requests, "estimate": estimate,
                              "fast_requests": len(fast), "other_requests": session_requests - len(session_bodies),
                              "refreshes": len(refreshes),
                              "search": bodies[mark:], "search_requests": total() - requests}
    finally:
        daemon.stop()
        for relay in relays:
            relay.close()
    return captured


def run_typing(label, binary, tmp, records, typed, categories, passes, cluster):
    figures = {"label": label, "load_before": load_average()}
    daemon = Daemon(binary, os.path.join(tmp, label.replace(" ", "-")), cluster.serve_args())
    try:
        began = time.monotonic()
        daemon.client.call("importFile", {"index": INDEX, "path": records, "settings": SETTINGS})
        daemon.client.pending.clear()
        figures["import_s"] = time.monotonic() - began
        captured = capture_bodies(binary, tmp, label, cluster, typed, categories)
        figures["captured"] = captured
        picker = Picker(daemon.client, "picker", categories)
        direct = DirectNode(cluster.nodes[0], cluster.api_key_file)
        for text in typed[:5]:
            typed_keystroke(picker, text)
        samples = collections.defaultdict(lambda: collections.defaultdict(list))
        for _ in range(passes):
            for text in typed:
                bodies = captured[text]
                first_s, exact_s, estimate = typed_keystroke(picker, text)
                began = time.perf_counter()
                daemon.client.call("search", search_params(text, categories))
                search_s = time.perf_counter() - began
                fast_direct = direct.post(bodies["session"][0]) if bodies["session"] else 0.0
                exact_direct = direct.post(bodies["session"][1]) if len(bodies["session"]) > 1 else fast_direct
                search_direct = sum(direct.post(body) for body in bodies["search"])
                for group in (word_length(text), "all"):
                    row = samples[group]
                    row["first"].append(first_s)
                    row["exact"].append(exact_s)
                    row["estimates"].append(1 if estimate else 0)
                    row["search"].append(search_s)
                    row["fast_direct"].append(fast_direct)
                    row["exact_direct"].append(exact_direct)
                    row["search_direct"].append(search_direct)
                    row["requests_first"].append(bodies["fast_requests"])
                    row["fast_searches"].append(len(json.loads(bodies["session"][0])["searches"]) if bodies["session"] else 0)
                    row["other_requests"].append(bodies["other_requests"])
                    row["requests"].append(bodies["session_requests"])
                    row["search_requests"].append(bodies["search_requests"])
                    row["refreshes"].append(bodies["refreshes"])
        direct.close()
        figures["samples"] = samples
    except BaseException:
        print(f"{label}: failed; daemon log tail:\n{daemon.log()}", file=sys.stderr)
        raise
    finally:
        daemon.stop()
    figures["load_after"] = load_average()
    return figures


def report_typing(runs, args, records_bytes):
    print(f"\n{args.count:,} records ({records_bytes / (1 << 20):.1f} MiB of NDJSON); {args.keystrokes} keystrokes a pass, "
          f"{args.passes} timed passes after 5 warm-up keystrokes; times in ms, p50 / p99\n")
    for run in runs:
        print(f"### {run['label']} (importFile {run['import_s']:.1f} s; load average {run['load_before']} → {run['load_after']})\n")
        print("| word typed | keystrokes | estimates | session → first resultsUpdated | Typesense fast, direct | first / direct (p50) "
              "| session → exact completion | Typesense exact, direct | exact / direct (p99) | `search` exact | its requests, direct "
              "| search / direct (p50) | HTTP requests: fast multi_search / all (of which not multi_search) |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        samples = run["samples"]
        for group in ["1", "2", "3", "4+", "all"]:
            row = samples.get(group)
            if not row:
                continue
            q = lambda key, p: ms(row[key], p)
            pair = lambda key: f"{q(key, 0.5):.2f} / {q(key, 0.99):.2f}"
            n = len(row["first"])
            print(f"| {group} | {n} | {sum(row['estimates']) / n:.0%} | {pair('first')} | {pair('fast_direct')} "
                  f"| {q('first', 0.5) / q('fast_direct', 0.5):.2f}× | {pair('exact')} | {pair('exact_direct')} "
                  f"| {q('exact', 0.99) / q('exact_direct', 0.99):.2f}× | {pair('search')} | {pair('search_direct')} "
                  f"| {q('search', 0.5) / q('search_direct', 0.5):.2f}× "
                  f"| {sum(row['requests_first']) / n:.2f} / {sum(row['requests']) / n:.2f} "
                  f"({sum(row['other_requests']) / n:.2f}) |")
        row = samples["all"]
        print(f"\nSearches a keystroke's fast multi_search held (p50 / max): "
              f"{percentile(sorted(row['fast_searches']), 0.5):.0f} / {max(row['fast_searches'])}; counts the daemon "
              f"refreshed off the keystrokes while they were captured: {sum(row['refreshes']) / len(row['refreshes']):.2f} "
              f"a keystroke")
        print()


def type_passes(picker, typed, passes):
    """A first pass (warm-up, kept apart), then `passes` timed passes."""
    first = [picker.keystroke(text)[0] for text in typed]
    warm, answers = [], {}
    for _ in range(passes):
        for text in typed:
            seconds, hits, brands = picker.keystroke(text)
            warm.append((seconds, text))
            answers[text] = (hits, brands)
    return first, warm, answers


def run_backend(label, binary, tmp, records, typed, categories, passes, cluster=None, count_keystrokes=0):
    figures = {"label": label, "load_before": load_average()}
    extra = cluster.serve_args() if cluster else []
    daemon = Daemon(binary, os.path.join(tmp, label.replace(" ", "-")), extra)
    try:
        figures["backend"] = daemon.capabilities.get("backend", {}).get("name", "embedded")
        began = time.monotonic()
        daemon.client.call("importFile", {"index": INDEX, "path": records, "settings": SETTINGS})
        daemon.client.pending.clear()
        figures["import_s"] = time.monotonic() - began
        picker = Picker(daemon.client, "picker", categories)
        first, warm, figures["answers"] = type_passes(picker, typed, passes)
        figures["first"], figures["warm"] = first, [seconds for seconds, _ in warm]
        figures["slowest"] = sorted(warm, reverse=True)[:5]
        # The keystroke slow on every pass, not one a busy core slowed once: the largest of each text's fastest time.
        fastest = {}
        for seconds, text in warm:
            fastest[text] = min(seconds, fastest.get(text, seconds))
        figures["steadily_slowest"] = max(fastest.items(), key=lambda item: item[1])
        figures["daemon_rss"] = rss_mib(daemon.process.pid)
        if cluster:
            figures["node_rss"] = [rss_mib(cluster.pid(i)) for i in range(cluster.size)]
    except BaseException:
        print(f"{label}: failed; daemon log tail:\n{daemon.log()}", file=sys.stderr)
        raise
    finally:
        daemon.stop()
    if cluster and count_keystrokes:
        explain = figures["steadily_slowest"][0] if cluster.size == 1 else None
        figures["http"] = count_requests(binary, tmp, label, cluster, typed[:count_keystrokes], categories, explain)
    figures["load_after"] = load_average()
    return figures


def count_requests(binary, tmp, label, cluster, typed, categories, explain=None):
    """HTTP requests per keystroke, by a second daemon on the same indices
    (they live in the cluster) reaching each node through a counting relay.
    With `explain`, that keystroke's requests are also kept and replayed."""
    relays = [CountingRelay(node) for node in cluster.nodes]
    args = ["--typesense-nodes", ",".join(r.address for r in relays),
            "--typesense-api-key-file", cluster.api_key_file, "--typesense-indices", "all"]
    daemon = Daemon(binary, os.path.join(tmp, label.replace(" ", "-") + "-counted"), args)
    try:
        picker = Picker(daemon.client, "counted", categories)
        for text in typed[:5]:  # the daemon's first reads of the catalogue, not a keystroke's cost
            picker.keystroke(text)
        before = [r.snapshot() for r in relays]
        began = time.monotonic()
        for text in typed:
            picker.keystroke(text)
        elapsed = time.monotonic() - began
        after = [r.snapshot() for r in relays]
        bodies = []
        if explain:
            for relay in relays:
                relay.bodies = bodies
            picker.keystroke(explain)
    finally:
        daemon.stop()
        for relay in relays:
            relay.close()
    paths, searches, per_node = collections.Counter(), 0, []
    for (b_paths, b_searches), (a_paths, a_searches) in zip(before, after):
        delta = a_paths - b_paths
        paths += delta
        searches += a_searches - b_searches
        per_node.append(sum(delta.values()))
    counted = {"keystrokes": len(typed), "seconds": elapsed, "paths": paths, "searches": searches, "per_node": per_node}
    if bodies:
        counted["explained"] = (explain, replay_variants(cluster, bodies))
    return counted


def replay_variants(cluster, bodies):
    """Where one keystroke's time goes on the server: the hits searcher's
    `multi_search` (the first one sent) replayed straight to node 0 as sent
    and with parts of it left out. (label, median search_time_ms of each
    search, median wall ms, response KiB)."""
    with open(cluster.api_key_file) as f:
        key = f.read().strip()
    searches = json.loads(bodies[0])["searches"]
    hits = searches[0]
    without = lambda *keys: {k: v for k, v in hits.items() if k not in keys}
    exact = ("max_candidates", "typo_tokens_threshold", "drop_tokens_threshold")
    variants = [
        ("as sent: hits + the or-group's count", searches),
        ("the hits search alone", [hits]),
        ("hits, facets cut to 100 values each", [dict(hits, max_facet_values=100)]),
        ("hits, no facets", [without("facet_by", "max_facet_values")]),
        ("hits, no facets, no highlight_full_fields", [without("facet_by", "max_facet_values", "highlight_full_fields")]),
        ("hits, no facets, Typesense's default candidates/typos/drops", [without("facet_by", "max_facet_values", *exact)]),
    ]
    rows = []
    for label, variant in variants:
        body = json.dumps({"searches": variant}).encode()
        walls, server = [], []
        for _ in range(5):
            request = urllib.request.Request(f"http://{cluster.nodes[0]}/multi_search", data=body, method="POST",
                                             headers={"X-TYPESENSE-API-KEY": key})
            began = time.perf_counter()
            with urllib.request.urlopen(request, timeout=60) as response:
                raw = response.read()
            walls.append(time.perf_counter() - began)
            server.append([result.get("search_time_ms", 0) for result in json.loads(raw)["results"]])
        middle = sorted(server, key=sum)[len(server) // 2]
        rows.append((label, middle, sorted(walls)[len(walls) // 2] * 1000, len(raw) / 1024))
    return rows


def ms(values, p):
    return percentile(values, p) * 1000


def report(runs, args, records_bytes):
    embedded = runs[0]
    print(f"\n{args.count:,} records ({records_bytes / args.count:.0f} B each, "
          f"{records_bytes / (1 << 20):.1f} MiB of NDJSON); {len(embedded['warm']) // args.passes} keystrokes a pass, "
          f"{args.passes} timed passes after a warm-up pass\n")
    print("| backend | importFile | keystroke p50 | keystroke p99 | p50 / embedded | p99 / embedded "
          "| HTTP requests a keystroke | searches a keystroke |")
    print("|---|---|---|---|---|---|---|---|")
    for run in runs:
        p50, p99 = ms(run["warm"], 0.5), ms(run["warm"], 0.99)
        http = run.get("http")
        requests = f"{sum(http['paths'].values()) / http['keystrokes']:.2f}" if http else "0"
        searches = f"{http['searches'] / http['keystrokes']:.2f}" if http else "(in process)"
        print(f"| {run['label']} | {run['import_s']:.2f} s ({args.count / run['import_s']:,.0f} docs/s) "
              f"| {p50:.2f} ms | {p99:.2f} ms | {p50 / ms(embedded['warm'], 0.5):.1f}× "
              f"| {p99 / ms(embedded['warm'], 0.99):.1f}× | {requests} | {searches} |")
    print()
    for run in runs:
        first = run["first"]
        line = (f"{run['label']}: backend {run['backend']!r}, first pass p50/p99 {ms(first, 0.5):.2f}/"
                f"{ms(first, 0.99):.2f} ms, max warm {max(run['warm']) * 1000:.2f} ms, daemon RSS "
                f"{run['daemon_rss']:.0f} MiB")
        if "node_rss" in run:
            line += ", Typesense RSS " + " + ".join(f"{r:.0f}" for r in run["node_rss"]) + " MiB"
        print(line + f", load average {run['load_before']} → {run['load_after']}")
        print("  slowest warm keystrokes: " + ", ".join(
            f"{text!r} {seconds * 1000:.1f} ms ({run['answers'][text][0]:,} hits)" for seconds, text in run["slowest"]))
        http = run.get("http")
        if http:
            kinds = ", ".join(f"{path} {n}" for path, n in http["paths"].most_common())
            print(f"  requests over {http['keystrokes']} keystrokes in {http['seconds']:.1f} s: {kinds}; "
                  f"per node {http['per_node']}")
        if http and "explained" in http:
            text, rows = http["explained"]
            print(f"\nWhere the slowest keystroke's time goes ({text!r}, {run['steadily_slowest'][1] * 1000:.1f} ms through "
                  f"the daemon on its fastest pass): its hits searcher's multi_search replayed to the node 5 times (medians)\n\n| request | search_time_ms of each search | wall | response |\n|---|---|---|---|")
            for label, server, wall, kib in rows:
                print(f"| {label} | {' + '.join(str(t) for t in server)} ms | {wall:.1f} ms | {kib:.0f} KiB |")
            print()
    for run in runs[1:]:
        mine, theirs = run["answers"], embedded["answers"]
        hits = [text for text in mine if mine[text][0] == theirs[text][0]]
        brands = [text for text in mine if mine[text][1] == theirs[text][1]]
        differing = [f"{text!r} {theirs[text][0]} vs {mine[text][0]}" for text in mine if text not in hits][:4]
        print(f"{run['label']}: nbHits equal to the embedded engine's on {len(hits)} of {len(mine)} distinct "
              f"keystrokes, number of brand values on {len(brands)}" +
              (f" (nbHits embedded vs Typesense: {', '.join(differing)})" if differing else ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "quarry"))
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--keystrokes", type=int, default=200, help="keystrokes a pass")
    parser.add_argument("--passes", type=int, default=2, help="timed passes, after one warm-up pass")
    parser.add_argument("--counted", type=int, default=100, help="keystrokes typed through the counting relays")
    parser.add_argument("--skip-cluster", action="store_true", help="leave out the 3-node cluster")
    parser.add_argument("--sizes", default="1,3", help="with --typing: the cluster sizes to run, in order")
    parser.add_argument("--typing", action="store_true", help="issue 30's figures: first answer, exact completion, "
                        "search exact, each against Typesense queried directly (Typesense only)")
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        sys.exit(f"no binary at {args.binary}: swift build -c release --product quarry")
    binary = typesense_nodes.typesense_binary()  # fail before importing anything if there is no Typesense

    began = time.monotonic()
    print(f"machine: {machine()}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
          f"load average {load_average()}")
    with tempfile.TemporaryDirectory(prefix="qbackend", dir="/tmp") as tmp:
        records = os.path.join(tmp, "catalogue.ndjson")
        vocabulary, tops, distinct = set(), collections.Counter(), collections.defaultdict(set)
        with open(records, "w") as f:
            for record in catalogue.records(args.count):
                f.write(json.dumps(record, ensure_ascii=False) + "\n")
                tops[record["categories"]["lvl0"]] += 1
                distinct["brand"].add(record["brand"])
                distinct["tags"].update(record["tags"])
                if len(vocabulary) < 3000:
                    vocabulary.update(w for w in record["name"].lower().split() if PLAIN.match(w))
        typed = keystrokes(sorted(vocabulary), args.keystrokes)
        categories = [value for value, _ in tops.most_common(2)]
        print(f"distinct values: brand {len(distinct['brand']):,}, tags {len(distinct['tags']):,}, categories.lvl0 "
              f"{len(tops)}; the or-group selects {categories} ({tops[categories[0]] + tops[categories[1]]:,} records)")

        if args.typing:
            runs = []
            for size in [1] if args.skip_cluster else [int(n) for n in args.sizes.split(",")]:
                label = "Typesense, 1 node" if size == 1 else "Typesense, 3 nodes"
                with typesense_nodes.TypesenseCluster(size, binary=binary) as cluster:
                    runs.append(run_typing(label, args.binary, tmp, records, typed, categories, args.passes, cluster))
                print(f"{label} done at {time.monotonic() - began:.0f} s", flush=True)
                report_typing(runs[-1:], args, os.path.getsize(records))  # each run's table as soon as it is done
            print(f"\nwhole run: {time.monotonic() - began:.0f} s")
            return
        runs = [run_backend("embedded", args.binary, tmp, records, typed, categories, args.passes)]
        print(f"embedded done at {time.monotonic() - began:.0f} s", flush=True)
        sizes = [1] if args.skip_cluster else [1, 3]
        for size in sizes:
            label = "Typesense, 1 node" if size == 1 else "Typesense, 3 nodes"
            with typesense_nodes.TypesenseCluster(size, binary=binary) as cluster:
                runs.append(run_backend(label, args.binary, tmp, records, typed, categories, args.passes,
                                        cluster=cluster, count_keystrokes=args.counted))
            print(f"{label} done at {time.monotonic() - began:.0f} s", flush=True)
        report(runs, args, os.path.getsize(records))
    print(f"\nwhole run: {time.monotonic() - began:.0f} s")


if __name__ == "__main__":
    main()
