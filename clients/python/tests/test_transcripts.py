"""Replays protocol/examples/*.json against the real daemon: every message a
transcript shows the daemon sending must arrive, on its connection, in order
(see protocol/examples/README.md for the format and the matching rules)."""
import json
import os
import select
import socket
import time

import pytest

from conftest import ROOT

EXAMPLES = os.path.join(ROOT, "protocol", "examples")
TRANSCRIPTS = sorted(name for name in os.listdir(EXAMPLES) if name.endswith(".json"))
TIMEOUT = 15.0


def substitute(value, directory):
    if isinstance(value, str):
        return value.replace("${DIR}", directory)
    if isinstance(value, list):
        return [substitute(item, directory) for item in value]
    if isinstance(value, dict):
        return {key: substitute(item, directory) for key, item in value.items()}
    return value


def mismatch(pattern, value, path="$"):
    """Where `value` fails `pattern`, or None when it matches."""
    if pattern == "<any>":
        return None
    if isinstance(pattern, dict):
        if not isinstance(value, dict):
            return f"{path}: expected an object, got {value!r}"
        for key, item in pattern.items():
            if key not in value:
                return f"{path}.{key}: missing"
            problem = mismatch(item, value[key], f"{path}.{key}")
            if problem:
                return problem
        return None
    if isinstance(pattern, list):
        if not isinstance(value, list) or len(value) != len(pattern):
            return f"{path}: expected {len(pattern)} elements, got {value!r}"
        for index, (item, element) in enumerate(zip(pattern, value)):
            problem = mismatch(item, element, f"{path}[{index}]")
            if problem:
                return problem
        return None
    if pattern != value or type(pattern) is not type(value):
        return f"{path}: expected {pattern!r}, got {value!r}"
    return None


class Connection:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(path)
        self.buffer = b""
        self.peeked = []
        self.estimated = set()

    def send(self, message):
        self.sock.sendall(json.dumps(message).encode() + b"\n")

    def next(self, timeout=TIMEOUT):
        if self.peeked:
            return self.peeked.pop(0)
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self.sock], [], [], remaining)[0]:
                return None
            data = self.sock.recv(1 << 16)
            if not data:
                return None
            self.buffer += data
        line, self.buffer = self.buffer.split(b"\n", 1)
        if not line.strip():
            return self.next(timeout)
        message = json.loads(line)
        if self.is_completion(message):
            return self.next(timeout)
        return message

    def is_completion(self, message):
        """The exact counts a cluster pushes after a version's estimate (protocol/methods/resultsUpdated.md):
        transcripts show each version's results once (see protocol/examples/README.md)."""
        if message.get("method") != "resultsUpdated":
            return False
        params = message.get("params", {})
        version = (params.get("session"), params.get("stateVersion"))
        if params.get("exhaustive") is False:
            self.estimated.add(version)
            return False
        return version in self.estimated


def replay(transcript, socket_path, directory):
    for name, content in transcript.get("files", {}).items():
        with open(os.path.join(directory, name), "w") as file:
            file.write(content)
    connections = {name: Connection(socket_path) for name in transcript["connections"]}
    for number, step in enumerate(substitute(transcript["steps"], directory), 1):
        where = f"step {number} on {step['on']}"
        connection = connections[step["on"]]
        if "send" in step:
            connection.send(step["send"])
        elif "expect" in step:
            message = connection.next()
            assert message is not None, f"{where}: nothing arrived, expected {step['expect']}"
            problem = mismatch(step["expect"], message)
            assert problem is None, f"{where}: {problem}\n  message: {message}"
        elif "expectUnordered" in step:
            expected = list(step["expectUnordered"])
            arrived = [connection.next() for _ in expected]
            for message in arrived:
                assert message is not None, f"{where}: fewer messages than {expected}"
                match = next((pattern for pattern in expected if mismatch(pattern, message) is None), None)
                assert match is not None, f"{where}: {message} matches none of {expected}"
                expected.remove(match)
        elif "skip" in step:
            while True:
                message = connection.next()
                if message is None:
                    break
                if mismatch(step["skip"], message) is not None:
                    connection.peeked.append(message)
                    break
        else:
            raise AssertionError(f"{where}: unknown step {step}")
    for name, connection in connections.items():
        extra = connection.next(timeout=0.3)
        assert extra is None, f"{name} got a message the transcript does not show: {extra}"
        connection.sock.close()


@pytest.mark.parametrize("name", TRANSCRIPTS)
def test_transcript(name, daemon):
    with open(os.path.join(EXAMPLES, name)) as file:
        transcript = json.load(file)
    replay(transcript, daemon.path, os.path.dirname(daemon.data_dir))


def test_the_matcher_can_fail():
    assert mismatch({"a": [1, "<any>"]}, {"a": [1, {"x": 2}], "b": 3}) is None
    assert mismatch({"a": [1]}, {"a": [1, 2]}) is not None
    assert mismatch({"a": 1}, {"a": True}) is not None
    assert mismatch({"a": {"b": 1}}, {"a": {}}) == "$.a.b: missing"
