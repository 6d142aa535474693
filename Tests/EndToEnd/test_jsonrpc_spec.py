"""Every example of the JSON-RPC 2.0 specification, on both transports and framings.

Quarry has no `subtract` or `sum`, so where the specification's server returns a
result, ours returns -32601 for the same id; everything about framing, ids,
batches and notifications is checked as the specification states it.
"""
import json

NO_REPLY_WAIT = 0.3


def assert_error(reply, code, request_id):
    assert reply["jsonrpc"] == "2.0"
    assert reply["id"] == request_id
    assert reply["error"]["code"] == code, reply
    assert isinstance(reply["error"]["message"], str) and reply["error"]["message"]


def test_call_with_positional_and_named_params(peer):
    peer.send({"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1})
    assert_error(peer.receive(), -32601, 1)
    peer.send({"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3})
    assert_error(peer.receive(), -32601, 3)


def test_string_ids_are_echoed_exactly(peer):
    peer.send({"jsonrpc": "2.0", "method": "subtract", "id": "a-b/ü 1"})
    assert_error(peer.receive(), -32601, "a-b/ü 1")
    peer.send({"jsonrpc": "2.0", "method": "subtract", "id": 9007199254740993})
    assert_error(peer.receive(), -32601, 9007199254740993)


def test_notifications_get_no_reply(peer):
    peer.send({"jsonrpc": "2.0", "method": "update", "params": [1, 2, 3, 4, 5]})
    peer.send({"jsonrpc": "2.0", "method": "foobar"})
    assert peer.receive(NO_REPLY_WAIT) is None


def test_non_existent_method(peer):
    peer.send({"jsonrpc": "2.0", "method": "foobar", "id": "1"})
    reply = peer.receive()
    assert_error(reply, -32601, "1")
    assert "foobar" in reply["error"]["message"]


def test_invalid_json(peer):
    peer.send(b'{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]')
    assert_error(peer.receive(), -32700, None)
    peer.send({"jsonrpc": "2.0", "method": "foobar", "id": 2})
    assert_error(peer.receive(), -32601, 2)  # the connection stays usable


def test_invalid_request_object(peer):
    peer.send({"jsonrpc": "2.0", "method": 1, "params": "bar"})
    assert_error(peer.receive(), -32600, None)


def test_batch_invalid_json(peer):
    peer.send(b'[{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},{"jsonrpc": "2.0", "method"]')
    assert_error(peer.receive(), -32700, None)


def test_empty_batch(peer):
    peer.send(b"[]")
    assert_error(peer.receive(), -32600, None)


def test_invalid_non_empty_batches(peer):
    peer.send(b"[1]")
    replies = peer.receive()
    assert isinstance(replies, list) and len(replies) == 1
    assert_error(replies[0], -32600, None)
    peer.send(b"[1,2,3]")
    replies = peer.receive()
    assert [r["error"]["code"] for r in replies] == [-32600] * 3


def test_mixed_batch(peer):
    peer.send([
        {"jsonrpc": "2.0", "method": "sum", "params": [1, 2, 4], "id": "1"},
        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
        {"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": "2"},
        {"foo": "boo"},
        {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
        {"jsonrpc": "2.0", "method": "get_data", "id": "9"},
    ])
    replies = peer.receive()
    assert isinstance(replies, list)
    by_id = {}
    for reply in replies:
        by_id.setdefault(reply["id"], []).append(reply["error"]["code"])
    assert by_id == {"1": [-32601], "2": [-32601], None: [-32600], "5": [-32601], "9": [-32601]}


def test_all_notification_batch_gets_no_reply(peer):
    peer.send([
        {"jsonrpc": "2.0", "method": "notify_sum", "params": [1, 2, 4]},
        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
    ])
    assert peer.receive(NO_REPLY_WAIT) is None


def test_batch_of_real_requests_is_answered_in_one_array(peer):
    peer.send([
        {"jsonrpc": "2.0", "method": "listIndices", "id": 1},
        {"jsonrpc": "2.0", "method": "search", "params": {"index": "missing"}, "id": 2},
    ])
    replies = peer.receive()
    assert sorted(r["id"] for r in replies) == [1, 2]
    by_id = {r["id"]: r for r in replies}
    assert "result" in by_id[1]
    assert by_id[2]["error"]["code"] != 0


def test_invalid_params_name_the_parameter(peer):
    reply = peer.request("saveObjects", {"index": "x", "objects": [{"a": 1}, 7]})
    assert reply["error"]["code"] == -32602
    assert "'objects[1]' must be an object, got number" in reply["error"]["message"]
    assert reply["error"]["data"] == {"parameter": "objects[1]"}
    reply = peer.request("search", ["positional"])
    assert reply["error"]["code"] == -32602
    assert "params must be an object" in reply["error"]["message"]
