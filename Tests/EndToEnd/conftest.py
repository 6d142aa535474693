import os
import tempfile

import pytest

import typesense_differences
from harness import ROOT, SocketDaemon, StdioDaemon
from typesense_nodes import TypesenseCluster, tier_environment


@pytest.fixture
def short_tmp():
    """A short temp dir: Unix socket paths must stay under 108 bytes."""
    with tempfile.TemporaryDirectory(prefix="q", dir="/tmp") as path:
        yield path


@pytest.fixture
def data_dir(short_tmp):
    path = os.path.join(short_tmp, "data")
    os.mkdir(path)
    return path


@pytest.fixture(params=["lsp", "ndjson"])
def framing(request):
    return request.param


@pytest.fixture
def stdio(data_dir, framing):
    daemon = StdioDaemon(data_dir, framing)
    yield daemon
    daemon.kill()


@pytest.fixture
def daemon(short_tmp, data_dir):
    server = SocketDaemon(data_dir, os.path.join(short_tmp, "q.sock"))
    yield server
    server.kill()


@pytest.fixture(params=["stdio", "socket"])
def peer(request, data_dir, short_tmp, framing):
    """An initialized client on either transport, in either framing."""
    if request.param == "stdio":
        server = StdioDaemon(data_dir, framing)
        client = server.peer
        client.initialize()
    else:
        server = SocketDaemon(data_dir, os.path.join(short_tmp, "q.sock"))
        client = server.connect(framing)
    client.daemon = server
    yield client
    server.kill()


# Typesense: nodes for the tests that need one, and the backend tier
# (QUARRY_BACKEND=typesense) that runs every test's daemons on one node.

TYPESENSE_TIER = os.environ.get("QUARRY_BACKEND") == "typesense"
BACKENDS_DOC = os.path.join(ROOT, "protocol", "backends.md")


@pytest.fixture(scope="session")
def typesense_node():
    """One Typesense node for the whole run. No binary is an error, not a skip."""
    node = TypesenseCluster(size=1)
    yield node
    node.stop()


@pytest.fixture(scope="module")
def typesense_cluster3():
    """A 3-node Typesense cluster with an elected leader (about 12 s to start)."""
    cluster = TypesenseCluster(size=3)
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session", autouse=True)
def typesense_backend(request):
    """In the Typesense tier, the environment that puts every daemon on the
    session's node (see typesense_nodes.backend_environment); set before any
    other fixture starts a daemon. None outside the tier."""
    if not TYPESENSE_TIER:
        yield None
        return
    node = request.getfixturevalue("typesense_node")
    with tier_environment(node):
        yield node


@pytest.fixture(autouse=True)
def typesense_isolation(typesense_backend):
    """In the Typesense tier, each test starts on an empty node: what a test's
    daemons created (collections, aliases, Quarry's metadata) goes after it."""
    yield
    if typesense_backend is not None:
        typesense_backend.delete_all_collections()


def pytest_collection_modifyitems(config, items):
    if TYPESENSE_TIER:
        typesense_differences.apply(items, BACKENDS_DOC)
