"""What real JSON-RPC clients send, accepted as they send it: vscode-jsonrpc's and
python-lsp-jsonrpc's headers (Content-Type first, `charset=utf8`), several frames in one
write, pygls's `"params": null` on requests and notifications, Neovim's empty params
object and LSP's `$/` notifications the server does not know."""
import json

from harness import StdioDaemon


def frame(body, content_type):
    data = json.dumps(body).encode()
    return b"Content-Type: %s\r\nContent-Length: %d\r\n\r\n%s" % (content_type, len(data), data)


def test_lsp_clients_headers_and_params_habits(data_dir):
    daemon = StdioDaemon(data_dir, "lsp")
    try:
        peer = daemon.peer
        peer.send_raw(
            frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None,
                                                                                  "capabilities": {}}},
                  b"application/vscode-jsonrpc; charset=utf-8")
            + frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}, b"application/vscode-jsonrpc; charset=utf8")
            + frame({"jsonrpc": "2.0", "method": "$/setTrace", "params": {"value": "off"}}, b"application/vscode-jsonrpc")
            + frame({"jsonrpc": "2.0", "id": 2, "method": "listIndices", "params": None}, b"application/vscode-jsonrpc")
            + frame({"jsonrpc": "2.0", "id": 3, "method": "shutdown", "params": None}, b"application/vscode-jsonrpc"))
        replies = {}
        while len(replies) < 3:  # the read may overtake the inline shutdown's reply
            message = peer.receive()
            assert message is not None, f"replies so far: {replies}"
            replies[message["id"]] = message
        assert "result" in replies[1]
        assert replies[2]["result"]["items"] == []
        assert replies[3]["result"] is None
        peer.send_raw(frame({"jsonrpc": "2.0", "method": "exit", "params": None}, b"application/vscode-jsonrpc"))
        assert daemon.wait() == 0
        assert "setTrace" not in daemon.stderr(), "LSP's $/ notifications are ignored quietly"
    finally:
        daemon.kill()
