#!/usr/bin/env python3
"""Load and soak: many frontends on shared sessions for a fixed time, release build.

10 sessions × 10 connections each (100 frontends reading every push), one typist
per session at 20 keystrokes/s (the typist is one of its session's 10), plus one
connection per session that attaches and then never reads. Over a realistic
catalogue (Benchmarks/catalogue.py). Prints, per connection and overall, the push
latency (typist's setQuery written → that version's resultsUpdated read), versions
that went backwards (must be 0), connections not on their session's newest version
1 s after the last keystroke (must be 0), and the daemon's RSS over time. Then it
opens 1,000 connections at once and times their initialize.

Readers run in separate processes (CLOCK_MONOTONIC is shared) and recognise a push
by its first bytes without parsing it, so the measuring client stays cheap.

    swift build -c release --product quarry
    python3 Benchmarks/soak.py --minutes 10 [--count 100000] [--sessions 10] [--per-session 10]
"""
import argparse
import json
import multiprocessing
import os
import re
import resource
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import catalogue  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PUSH = re.compile(rb'^\{"jsonrpc":"2\.0","method":"resultsUpdated","params":\{"session":"([^"]+)","stateVersion":(\d+)')
REPLY = re.compile(rb'^\{"jsonrpc":"2\.0","id":(\d+),"result":\{.*?"stateVersion":(\d+)')


def request(sock, request_id, method, params):
    sock.sendall(json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}).encode() + b"\n")


def read_reply(sock, request_id, buffer=b""):
    """Blocks until the reply to `request_id`; returns it and the bytes after it."""
    marker = b'"id":%d,' % request_id
    while True:
        lines = buffer.split(b"\n")
        for index, line in enumerate(lines[:-1]):
            if marker in line[:40] and b'"method"' not in line[:40]:
                reply = json.loads(line)
                if "error" in reply:
                    raise RuntimeError(f"request {request_id}: {reply['error']}")
                return reply["result"], b"\n".join(lines[index + 1:])
        chunk = sock.recv(1 << 20)
        if not chunk:
            raise RuntimeError("the daemon closed the connection")
        buffer += chunk


def attach(path, session, searchers=None):
    sock = socket.socket(socket.AF_UNIX)
    sock.connect(path)
    request(sock, 1, "initialize", {"clientInfo": {"name": "soak"}})
    _, rest = read_reply(sock, 1)
    params = {"session": session}
    if searchers:
        params["searchers"] = searchers
    request(sock, 2, "openSession", params)
    _, rest = read_reply(sock, 2, rest)
    return sock, rest


def reader_process(path, assignments, ready, stop, results):
    """Attaches to its sessions and records (connection, session, version, read ns) for every push."""
    selector = selectors.DefaultSelector()
    connections = []
    for number, session in assignments:
        sock, rest = attach(path, session)
        sock.setblocking(False)
        connections.append({"number": number, "session": session, "buffer": rest, "pushes": [], "replies": []})
        selector.register(sock, selectors.EVENT_READ, len(connections) - 1)
    ready.release()
    while not stop.is_set():
        for key, _ in selector.select(timeout=0.2):
            connection = connections[key.data]
            try:
                chunk = key.fileobj.recv(1 << 20)
            except BlockingIOError:
                continue
            now = time.monotonic_ns()
            if not chunk:
                selector.unregister(key.fileobj)
                connection["closed"] = True
                continue
            lines = (connection["buffer"] + chunk).split(b"\n")
            connection["buffer"] = lines[-1]
            for line in lines[:-1]:
                match = PUSH.match(line)
                if match:
                    connection["pushes"].append((int(match.group(2)), now))
                    continue
                match = REPLY.match(line)
                if match:
                    connection["replies"].append((int(match.group(1)), int(match.group(2))))
    results.put([{k: v for k, v in c.items() if k != "buffer"} for c in connections])


def typist(sock, session, rate, stop, sent, words, seed, phase):
    """Types words one keystroke at a time (with some backspacing), fire and forget.
    Typists start `phase` seconds apart: people do not type in lockstep."""
    import random
    rng = random.Random(seed)
    request_id = 100
    query = ""
    next_at = time.monotonic() + phase
    time.sleep(phase)
    while not stop.is_set():
        if len(query) > 18 or (query and rng.random() < 0.15):
            query = query[:-1] if rng.random() < 0.7 else ""
        else:
            if not query or query.endswith(" ") or rng.random() < 0.02:
                target = rng.choice(words)
            query += target[len(query.split(" ")[-1]):][:1] or " "
        request_id += 1
        sent[request_id] = time.monotonic_ns()
        request(sock, request_id, "setQuery", {"session": session, "query": query})
        next_at += 1 / rate
        time.sleep(max(0.0, next_at - time.monotonic()))


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def quantile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))] if values else float("nan")


def open_many(path, count):
    """Opens `count` connections at once and initializes them all; returns (seconds, answered)."""
    start = time.monotonic()
    sockets, answered = [], 0
    for _ in range(count):
        sock = socket.socket(socket.AF_UNIX)
        sock.connect(path)
        sockets.append(sock)
    for number, sock in enumerate(sockets):
        request(sock, 1, "initialize", {"clientInfo": {"name": f"burst-{number}"}})
    for sock in sockets:
        sock.settimeout(30)
        try:
            read_reply(sock, 1)
            answered += 1
        except (OSError, RuntimeError):
            pass
    seconds = time.monotonic() - start
    for sock in sockets:
        sock.close()
    return seconds, answered


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "quarry"))
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--count", type=int, default=100_000, help="catalogue records")
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--per-session", type=int, default=10, help="reading connections per session, typist included")
    parser.add_argument("--rate", type=float, default=20, help="keystrokes per second per typist")
    parser.add_argument("--processes", type=int, default=2, help="reader processes")
    parser.add_argument("--burst", type=int, default=1000, help="connections opened at once at the end")
    parser.add_argument("--daemon-arg", action="append", default=[], help="an extra argument for quarry serve")
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        sys.exit(f"no binary at {args.binary}: swift build -c release --product quarry")

    with tempfile.TemporaryDirectory(prefix="qsoak", dir="/tmp") as tmp:
        path = os.path.join(tmp, "q.sock")

        def raise_fd_limit():
            _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))

        daemon = subprocess.Popen([args.binary, "serve", "--socket", path, "--data-dir", os.path.join(tmp, "data"),
                                   *args.daemon_arg],
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=open(os.path.join(tmp, "daemon.log"), "wb"), preexec_fn=raise_fd_limit)
        try:
            run(args, daemon, path, tmp)
        finally:
            daemon.terminate()
            daemon.wait()


def run(args, daemon, path, tmp):
    while not os.path.exists(path):
        time.sleep(0.01)
    records = os.path.join(tmp, "catalogue.ndjson")
    words = set()
    with open(records, "w") as f:
        for record in catalogue.records(args.count):
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
            if len(words) < 5000:
                words.update(w.lower() for w in record["name"].split() if len(w) > 3)
    words = sorted(words)
    admin = socket.socket(socket.AF_UNIX)
    admin.connect(path)
    request(admin, 1, "initialize", {})
    read_reply(admin, 1)
    start = time.monotonic()
    request(admin, 2, "importFile", {"index": "products", "path": records, "settings": {
        "searchableAttributes": ["name", "brand", "unordered(description)"],
        "attributesForFaceting": ["searchable(brand)", "categories.lvl0", "tags", "price", "rating"],
        "customRanking": ["desc(popularity)"]}})
    admin.settimeout(600)
    read_reply(admin, 2)
    print(f"catalogue: {args.count} records of {os.path.getsize(records) / args.count:.0f} B imported in "
          f"{time.monotonic() - start:.1f} s")

    searchers = [{"type": "hits", "index": "products", "hitsPerPage": 10, "facets": ["brand", "categories.lvl0"],
                  "attributesToRetrieve": ["name", "brand", "price"], "attributesToSnippet": ["description:10"]},
                 {"type": "facets", "index": "products", "attribute": "brand"}]
    sessions = [f"s{n}" for n in range(args.sessions)]
    typists = {}
    for session in sessions:
        typists[session] = attach(path, session, searchers)[0]
    silent = [attach(path, session)[0] for session in sessions]  # attached, never read again

    # The typist's own connection is read by a reader process too: it is one of the session's frontends.
    context = multiprocessing.get_context("fork")
    stop, ready, results = context.Event(), context.Semaphore(0), context.Queue()
    assignments = [[] for _ in range(args.processes)]
    number = 0
    for session in sessions:
        for _ in range(args.per_session - 1):
            assignments[number % args.processes].append((number, session))
            number += 1
    readers = [context.Process(target=reader_process, args=(path, a, ready, stop, results)) for a in assignments]
    for process in readers:
        process.start()
    for _ in readers:
        ready.acquire()

    typist_reads = {s: {"pushes": [], "replies": [], "buffer": b""} for s in sessions}
    typist_stop = threading.Event()

    def read_typists():
        selector = selectors.DefaultSelector()
        for session, sock in typists.items():
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ, session)
        while True:
            for key, _ in selector.select(timeout=0.2):
                state = typist_reads[key.data]
                try:
                    chunk = key.fileobj.recv(1 << 20)
                except BlockingIOError:
                    continue
                now = time.monotonic_ns()
                lines = (state["buffer"] + chunk).split(b"\n")
                state["buffer"] = lines[-1]
                for line in lines[:-1]:
                    if (match := PUSH.match(line)):
                        state["pushes"].append((int(match.group(2)), now))
                    elif (match := REPLY.match(line)):
                        state["replies"].append((int(match.group(1)), int(match.group(2))))
            if typist_stop.is_set() and time.monotonic() > typist_stop.deadline:
                break

    sent = {session: {} for session in sessions}
    typing_stop = threading.Event()
    typist_stop.deadline = float("inf")
    reading = threading.Thread(target=read_typists)
    reading.start()
    threads = [threading.Thread(target=typist, args=(typists[s], s, args.rate, typing_stop, sent[s], words, n,
                                                     n / (args.rate * len(sessions))))
               for n, s in enumerate(sessions)]
    rss = [(0.0, rss_mb(daemon.pid))]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    while time.monotonic() - began < args.minutes * 60:
        time.sleep(min(10.0, max(0.1, args.minutes * 60 - (time.monotonic() - began))))
        rss.append((time.monotonic() - began, rss_mb(daemon.pid)))
    typing_stop.set()
    for thread in threads:
        thread.join()
    last_keystroke = time.monotonic()
    time.sleep(1.0)
    typist_stop.deadline = time.monotonic() + 0.5
    typist_stop.set()
    stop.set()
    connections = []
    for _ in readers:
        connections.extend(results.get())
    for process in readers:
        process.join()
    reading.join()
    for session in sessions:
        connections.append({"number": f"typist-{session}", "session": session, **typist_reads[session]})

    # Versions to send times, from the typists' setQuery replies.
    sent_at = {}
    newest = {}
    for session in sessions:
        for request_id, version in typist_reads[session]["replies"]:
            if request_id in sent[session]:
                sent_at[(session, version)] = sent[session][request_id]
                newest[session] = max(newest.get(session, 0), version)
    latencies, backwards, behind, per_connection = [], 0, 0, []
    for connection in connections:
        own, last = [], 0
        for version, read_ns in connection["pushes"]:
            if version < last:
                backwards += 1
            last = max(last, version)
            if (connection["session"], version) in sent_at:
                own.append((read_ns - sent_at[(connection["session"], version)]) / 1e6)
        if last != newest.get(connection["session"]):
            behind += 1
        latencies.extend(own)
        per_connection.append((connection["number"], own))

    keystrokes = sum(len(s) for s in sent.values())
    minutes = (last_keystroke - began) / 60
    print(f"{len(sessions)} sessions × {args.per_session} reading connections ({len(connections)}), "
          f"{len(silent)} that never read; {keystrokes} keystrokes in {minutes:.1f} min "
          f"({keystrokes / (minutes * 60) / len(sessions):.1f}/s per typist)")
    print(f"push latency, all readers: n={len(latencies)} p50={quantile(latencies, 0.5):.2f} ms "
          f"p99={quantile(latencies, 0.99):.2f} ms max={max(latencies, default=float('nan')):.2f} ms")
    p99s = sorted((quantile(own, 0.99), str(number)) for number, own in per_connection if own)
    print(f"per-connection p99: best {p99s[0][0]:.2f} ms, median {p99s[len(p99s) // 2][0]:.2f} ms, "
          f"worst {p99s[-1][0]:.2f} ms (connection {p99s[-1][1]}); per-connection max: worst "
          f"{max(max(own) for _, own in per_connection if own):.2f} ms")
    print(f"versions gone backwards: {backwards}")
    print(f"connections not on their session's newest version 1 s after the last keystroke: {behind}")
    print("daemon RSS (MiB) over time: " + ", ".join(f"{t / 60:.1f} min {mb:.0f}" for t, mb in rss))
    for number, own in sorted(per_connection, key=lambda item: str(item[0])):
        if own:
            print(f"  connection {number}: n={len(own)} p50={quantile(own, 0.5):.2f} p99={quantile(own, 0.99):.2f} "
                  f"max={max(own):.2f} ms")

    for sock in silent:
        sock.close()
    seconds, answered = open_many(path, args.burst)
    print(f"{args.burst} connections opened at once: {answered} initialized in {seconds:.2f} s; "
          f"daemon RSS after: {rss_mb(daemon.pid):.0f} MiB")


if __name__ == "__main__":
    main()
