"""A third-party JSON-RPC client (python-lsp-jsonrpc, the one python-lsp-server
uses) drives the daemon over stdio: real clients interoperate, not just ours."""
import subprocess
import threading

from pylsp_jsonrpc.endpoint import Endpoint
from pylsp_jsonrpc.streams import JsonRpcStreamReader, JsonRpcStreamWriter

from harness import quarry_binary


def test_python_lsp_jsonrpc_client(data_dir):
    process = subprocess.Popen([quarry_binary(), "serve", "--data-dir", data_dir],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    writer = JsonRpcStreamWriter(process.stdin)
    reader = JsonRpcStreamReader(process.stdout)
    notifications = []
    endpoint = Endpoint({}, writer.write)
    listener = threading.Thread(target=reader.listen, args=(endpoint.consume,), daemon=True)
    listener.start()
    try:
        initialized = endpoint.request("initialize", {"capabilities": {}}).result(timeout=10)
        assert initialized["serverInfo"]["name"] == "quarry"
        endpoint.notify("initialized", {})
        saved = endpoint.request("saveObjects", {"index": "people", "objects": [
            {"objectID": "1", "name": "George Clooney"}, {"objectID": "2", "name": "Amal Clooney"},
        ]}).result(timeout=10)
        assert saved["objectIDs"] == ["1", "2"]
        found = endpoint.request("search", {"index": "people", "query": "cloo"}).result(timeout=10)
        assert found["nbHits"] == 2
        try:
            endpoint.request("search", {"index": 3}).result(timeout=10)
            raise AssertionError("an invalid index name must fail")
        except Exception as error:  # the library raises its JsonRpcException
            assert getattr(error, "code", None) == -32602
        assert endpoint.request("shutdown").result(timeout=10) is None
        endpoint.notify("exit")
        assert process.wait(10) == 0
    finally:
        endpoint.shutdown()
        if process.poll() is None:
            process.kill()
        assert not notifications
