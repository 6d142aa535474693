"""The JSON-RPC 2.0 specification cases of test_jsonrpc_spec.py, over a WebSocket (protocol/websocket.md):
the same bodies, with `peer` an admin-key WebSocket connection to a daemon listening on HTTP."""
import os

import pytest

from test_jsonrpc_spec import *  # noqa: F401,F403 — the socket suite's test bodies, collected again here
from web_support import WebDaemon


@pytest.fixture
def peer(data_dir, short_tmp):
    daemon = WebDaemon(data_dir, os.path.join(short_tmp, "q.sock"))
    client = daemon.websocket("admin")
    client.daemon = daemon
    yield client
    client.close()
    daemon.kill()
