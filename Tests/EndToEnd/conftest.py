import os
import tempfile

import pytest

from harness import SocketDaemon, StdioDaemon


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
