"""Numbers beyond a double's range, which JSON's grammar allows.

1. A request holding one in a parameter is answered -32602 naming the parameter, with the request's id
   (not -32700 with `id: null`, which leaves a client waiting for its id forever).
2. That holds in both framings and on a batch element.
"""


def test_a_parameter_out_of_double_range_is_invalid_params_with_the_request_id(peer):
    peer.result("saveObjects", {"index": "products", "objects": [{"objectID": "1", "name": "one"}]})
    for method, params, parameter in [
        ("search", '{"index":"products","query":"","hitsPerPage":1e400}', "hitsPerPage"),
        ("search", '{"index":"products","query":"","page":-1e400}', "page"),
        ("setSettings", '{"index":"products","settings":{"paginationLimitedTo":2E+308}}', "settings.paginationLimitedTo"),
    ]:
        peer.send_raw(peer_frame(peer, '{"jsonrpc":"2.0","id":"big","method":"%s","params":%s}' % (method, params)))
        reply = peer.reply_to("big")
        assert reply["error"]["code"] == -32602, reply
        assert reply["error"]["data"]["parameter"] == parameter, reply
        assert parameter.split(".")[-1] in reply["error"]["message"], reply


def test_a_batch_element_out_of_range_gets_its_own_error_and_id(peer):
    peer.result("saveObjects", {"index": "products", "objects": [{"objectID": "1", "name": "one"}]})
    body = ('[{"jsonrpc":"2.0","id":1,"method":"listIndices"},'
            '{"jsonrpc":"2.0","id":2,"method":"search","params":{"index":"products","query":"","hitsPerPage":-1e999}}]')
    peer.send_raw(peer_frame(peer, body))
    replies = peer.receive()
    assert [reply["id"] for reply in replies] == [1, 2], replies
    assert "result" in replies[0]
    assert replies[1]["error"]["code"] == -32602 and replies[1]["error"]["data"]["parameter"] == "hitsPerPage"


def peer_frame(peer, text):
    """`text` framed as the peer frames its messages (kept as written: Python would turn 1e400 into inf)."""
    body = text.encode()
    if peer.framing == "lsp":
        return b"Content-Length: %d\r\n\r\n" % len(body) + body
    return body + b"\n"
