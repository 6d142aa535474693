#!/usr/bin/env python3
"""Request→reply round trip of the daemon, release build: 10,000 sequential
small requests (`listIndices` on an empty data directory) over stdio, over
the Unix socket, and through a second `quarry serve` that relays its stdio to
the owner's socket (handing its stdout over, and relaying replies as well), in
both framings. Prints p50/p99/max per transport.

    swift build -c release --product quarry
    python3 Benchmarks/rpc_roundtrip.py [--binary .build/release/quarry] [--count 10000]

The client is plain Python sockets/pipes; such a client plus the kernel take
10–14 µs of each round trip on this kind of machine (ARCHITECTURE.md,
"Measured facts").
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def frame(body, framing):
    return (b"Content-Length: %d\r\n\r\n" % len(body) + body) if framing == "lsp" else body + b"\n"


class Channel:
    def __init__(self, write, read, framing):
        self.write, self.read, self.framing, self.buffer = write, read, framing, b""

    def roundtrip(self, body):
        self.write(frame(body, self.framing))
        while True:
            if self.framing == "ndjson":
                end = self.buffer.find(b"\n")
                if end >= 0:
                    line, self.buffer = self.buffer[:end], self.buffer[end + 1:]
                    return line
            else:
                end = self.buffer.find(b"\r\n\r\n")
                if end >= 0:
                    length = int(self.buffer[16:end])
                    if len(self.buffer) >= end + 4 + length:
                        body, self.buffer = self.buffer[end + 4:end + 4 + length], self.buffer[end + 4 + length:]
                        return body
            chunk = self.read()
            if not chunk:
                raise RuntimeError("daemon closed the connection")
            self.buffer += chunk


def connect(path, timeout=10):
    """The daemon's socket, once it accepts (the file appears just before `listen`)."""
    deadline = time.monotonic() + timeout
    while True:
        sock = socket.socket(socket.AF_UNIX)
        try:
            sock.connect(path)
            return sock
        except OSError:
            sock.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def measure(channel, count):
    channel.roundtrip(b'{"jsonrpc":"2.0","id":0,"method":"initialize"}')
    for i in range(200):  # warm-up
        channel.roundtrip(b'{"jsonrpc":"2.0","id":%d,"method":"listIndices"}' % (i + 1))
    samples = []
    for i in range(count):
        body = b'{"jsonrpc":"2.0","id":%d,"method":"listIndices"}' % (i + 1000)
        start = time.perf_counter_ns()
        reply = channel.roundtrip(body)
        samples.append(time.perf_counter_ns() - start)
        if i == 0:
            assert json.loads(reply)["id"] == 1000
    samples.sort()
    return samples


def median(values):
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def measure_blocks(paths, count, block=500):
    """Medians of blocks of `block` round trips, the paths taking turns: {name: [block median, ...]}."""
    for name, channel in paths:
        channel.roundtrip(b'{"jsonrpc":"2.0","id":0,"method":"initialize"}')
        for i in range(200):
            channel.roundtrip(b'{"jsonrpc":"2.0","id":%d,"method":"listIndices"}' % (i + 1))
    medians = {name: [] for name, _ in paths}
    next_id = 10_000
    for _ in range(max(1, count // block)):
        for name, channel in paths:
            samples = []
            for _ in range(block):
                body = b'{"jsonrpc":"2.0","id":%d,"method":"listIndices"}' % next_id
                next_id += 1
                start = time.perf_counter_ns()
                channel.roundtrip(body)
                samples.append(time.perf_counter_ns() - start)
            medians[name].append(median(samples))
    return medians


def measure_pair(first, second, count):
    """Round trips on two channels, alternating, after a warm-up of each: (first's, second's), sorted."""
    second.roundtrip(b'{"jsonrpc":"2.0","id":0,"method":"initialize"}')
    for i in range(200):
        first.roundtrip(b'{"jsonrpc":"2.0","id":%d,"method":"listIndices"}' % (50_000 + i))
        second.roundtrip(b'{"jsonrpc":"2.0","id":%d,"method":"listIndices"}' % (i + 1))
    samples = ([], [])
    for i in range(count):
        for channel, kept in ((first, samples[0]), (second, samples[1])):
            body = b'{"jsonrpc":"2.0","id":%d,"method":"listIndices"}' % (100_000 + i)
            start = time.perf_counter_ns()
            channel.roundtrip(body)
            kept.append(time.perf_counter_ns() - start)
    return sorted(samples[0]), sorted(samples[1])


def report(name, samples):
    def q(p):
        return samples[min(len(samples) - 1, int(len(samples) * p))] / 1000
    print(f"{name:<22} n={len(samples):>6}  p50={q(0.50):7.1f} µs  p99={q(0.99):7.1f} µs  max={samples[-1] / 1000:8.1f} µs")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "quarry"))
    parser.add_argument("--count", type=int, default=10_000)
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        sys.exit(f"no binary at {args.binary}: swift build -c release --product quarry")
    with tempfile.TemporaryDirectory(prefix="qb", dir="/tmp") as tmp:
        for framing in ("lsp", "ndjson"):
            data = tempfile.mkdtemp(dir=tmp)
            process = subprocess.Popen([args.binary, "serve", "--data-dir", data],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            out = process.stdout.fileno()
            channel = Channel(lambda b: (process.stdin.write(b), process.stdin.flush()),
                              lambda: os.read(out, 65536), framing)
            report(f"stdio {framing}", measure(channel, args.count))
            process.kill()
            process.wait()

            data = tempfile.mkdtemp(dir=tmp)
            path = os.path.join(tmp, f"{framing}.sock")
            process = subprocess.Popen([args.binary, "serve", "--socket", path, "--data-dir", data],
                                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            sock = connect(path)
            channel = Channel(sock.sendall, lambda: sock.recv(65536), framing)
            report(f"socket {framing}", measure(channel, args.count))

            # A second `quarry serve` on the owner's data directory relays its stdio to the owner's socket.
            # By default it hands its stdout to the owner, which writes replies straight to the frontend;
            # QUARRY_RELAY_REPLIES=1 makes it relay replies too (the path before, and after a failover).
            # Round trips through each path and directly on the owner's socket are taken in short blocks in
            # turn, so that all see the same machine over the same minutes; "adds" compares medians of the
            # blocks' medians with the direct socket's (the VM drifts by ±30 µs between runs).
            relays = {}
            for mode, extra in (("relay", {}), ("relay-replies", {"QUARRY_RELAY_REPLIES": "1"})):
                relay = subprocess.Popen([args.binary, "serve", "--data-dir", data], env={**os.environ, **extra},
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
                relays[mode] = (relay, Channel(lambda b, r=relay: (r.stdin.write(b), r.stdin.flush()),
                                               lambda o=relay.stdout.fileno(): os.read(o, 65536), framing))
            paths = [("socket", channel)] + [(mode, pair[1]) for mode, pair in relays.items()]
            blocks = measure_blocks(paths, args.count)
            socket_median = median(blocks["socket"])
            for mode, medians in blocks.items():
                line = f"{mode} {framing} (blocks)"
                extra = "" if mode == "socket" else f"   adds p50={(median(medians) - socket_median) / 1000:6.1f} µs"
                print(f"{line:<30} p50 of {len(medians)} block medians={median(medians) / 1000:7.1f} µs"
                      f" (blocks {min(medians) / 1000:.1f}–{max(medians) / 1000:.1f}){extra}")
            for relay, _ in relays.values():
                relay.kill()
                relay.wait()

            # `quarry connect`, the plain byte-for-byte forwarder, paired the same way for comparison.
            forwarder = subprocess.Popen([args.binary, "connect", "--socket", path],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            out = forwarder.stdout.fileno()
            forwarded = Channel(lambda b: (forwarder.stdin.write(b), forwarder.stdin.flush()),
                                lambda: os.read(out, 65536), framing)
            direct, through = measure_pair(channel, forwarded, args.count)
            report(f"connect {framing} (paired)", through)
            print(f"{'connect adds':<22} p50={(through[len(through) // 2] - direct[len(direct) // 2]) / 1000:7.1f} µs")
            sock.close()
            forwarder.kill()
            forwarder.wait()
            process.terminate()
            process.wait()


if __name__ == "__main__":
    main()
