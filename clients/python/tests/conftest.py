"""Fixtures that run the real `quarry` binary: a private daemon on pipes, or a
shared one on a socket in a short temporary directory."""
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


@pytest.fixture(scope="session", autouse=True)
def typesense_backend():
    """With QUARRY_BACKEND=typesense, every daemon these tests start keeps its indices on one
    Typesense node (through the config file daemons read), emptied after each test."""
    if os.environ.get("QUARRY_BACKEND") != "typesense":
        yield None
        return
    sys.path.insert(0, os.path.join(ROOT, "Tests", "EndToEnd"))
    from typesense_nodes import TypesenseCluster, tier_environment
    node = TypesenseCluster(size=1)
    with tier_environment(node):
        yield node
    node.stop()


def pytest_collection_modifyitems(config, items):
    """The tier's expected differences, from the end-to-end suite's list (Tests/EndToEnd/typesense_differences.py)."""
    if os.environ.get("QUARRY_BACKEND") == "typesense":
        sys.path.insert(0, os.path.join(ROOT, "Tests", "EndToEnd"))
        import typesense_differences
        typesense_differences.apply(items, os.path.join(ROOT, "protocol", "backends.md"))


@pytest.fixture(autouse=True)
def typesense_isolation(typesense_backend):
    yield
    if typesense_backend is not None:
        typesense_backend.delete_all_collections()


@pytest.fixture(scope="session")
def binary():
    path = os.environ.get("QUARRY_BIN") or os.path.join(ROOT, ".build", "debug", "quarry")
    if not os.access(path, os.X_OK):
        pytest.fail(f"no quarry binary at {path}: run `swift build` or set QUARRY_BIN")
    return path


@pytest.fixture
def tmp():
    """Short: a Unix socket path must stay under 108 bytes."""
    with tempfile.TemporaryDirectory(prefix="qpy", dir="/tmp") as path:
        yield path


@pytest.fixture
def data_dir(tmp):
    return os.path.join(tmp, "data")


class SocketDaemon:
    def __init__(self, binary, tmp):
        self.path = os.path.join(tmp, "q.sock")
        self.data_dir = os.path.join(tmp, "data")
        self.log = open(os.path.join(tmp, "daemon.log"), "wb")
        self.process = subprocess.Popen([binary, "serve", "--socket", self.path, "--data-dir", self.data_dir],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.monotonic() + 10
        while True:
            assert self.process.poll() is None, "daemon exited early"
            try:
                with socket.socket(socket.AF_UNIX) as probe:
                    probe.connect(self.path)
                return
            except OSError:
                assert time.monotonic() < deadline, "daemon did not listen"
                time.sleep(0.02)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


@pytest.fixture
def daemon(binary, tmp):
    server = SocketDaemon(binary, tmp)
    yield server
    server.stop()


@pytest.fixture
def client(binary, data_dir):
    from quarry import Client
    with Client.spawn(binary=binary, data_dir=data_dir, timeout=30) as spawned:
        yield spawned


PEOPLE = [
    {"objectID": "1", "name": "George Clooney", "popularity": 10, "tags": ["actor"], "url": "https://example.org/george"},
    {"objectID": "2", "name": "Amal Clooney", "popularity": 8, "tags": ["lawyer"], "url": "https://example.org/amal"},
    {"objectID": "3", "name": "Brad Pitt", "popularity": 9, "tags": ["actor"], "url": "https://example.org/brad"},
    {"objectID": "4", "name": "Émile Zola", "popularity": 5, "tags": ["writer"], "url": "https://example.org/zola"},
]


@pytest.fixture
def people():
    return [dict(record) for record in PEOPLE]
