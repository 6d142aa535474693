"""$/cancelRequest and the error codes that need a real engine behind them."""
import os

from harness import write_ndjson


def test_cancelled_import_replies_cancelled_and_changes_nothing(daemon, short_tmp):
    client = daemon.connect()
    client.result("saveObjects", {"index": "products", "objects": [{"objectID": "keep", "name": "kept"}]})
    path = os.path.join(short_tmp, "big.ndjson")
    write_ndjson(path, 300_000)
    client.send({"jsonrpc": "2.0", "id": "imp", "method": "importFile",
                 "params": {"index": "products", "path": path, "workDoneToken": "t"}})
    # Wait until the import is under way (its first report), then cancel it.
    while True:
        message = client.receive()
        assert message is not None
        if message.get("method") == "$/progress" and message["params"]["value"]["kind"] == "report":
            break
    client.notify("$/cancelRequest", {"id": "imp"})
    reply = client.reply_to("imp", timeout=60)
    assert reply["error"]["code"] == -32800, reply
    found = client.result("search", {"index": "products", "query": ""})
    assert found["nbHits"] == 1, "a cancelled import leaves the index as it was"


def test_cancelling_a_finished_request_is_harmless(peer):
    reply = peer.request("listIndices")
    peer.notify("$/cancelRequest", {"id": reply["id"]})
    peer.notify("$/cancelRequest", {"id": "never-sent"})
    assert "result" in peer.request("listIndices")


def test_storage_failure_when_the_store_fails(daemon, data_dir):
    client = daemon.connect()
    # Take the engine's indices folder away under it: creating an index must
    # fail in storage (-32011, not -32603, which is for bugs), and the daemon must keep serving.
    import shutil
    indices = [os.path.join(data_dir, name) for name in os.listdir(data_dir)
               if os.path.isdir(os.path.join(data_dir, name))]
    for path in indices:
        shutil.rmtree(path)
        open(path, "w").close()
    reply = client.request("saveObjects", {"index": "new", "objects": [{"a": 1}]})
    assert reply["error"]["code"] == -32011, reply
    assert reply["error"]["data"] == {"reason": "storage"}, reply
    assert "storage" in reply["error"]["message"]
    assert "result" in client.request("listIndices")
