"""Read-your-writes on one connection: a request that reads an index, sent right after a
write to it without waiting for the write's reply (as `printf '…\\n…\\n' | quarry connect`
and LSP clients send), sees that write. On stdio and sockets, in both framings."""
import json
import os

WORDS = ["ash", "birch", "cedar", "delta", "ember", "fjord", "garnet", "harbor"]


def batch(count, start=0, word="amber"):
    """Enough records that the write takes a while: a read that overtook it would miss it."""
    return [{"objectID": str(n), "title": f"{word} {WORDS[n % len(WORDS)]} {n}", "body": "lorem ipsum " * 20,
             "n": n} for n in range(start, start + count)]


def pipeline(peer, *calls):
    """Sends every call at once, then returns their replies in order."""
    ids = []
    for method, params in calls:
        ids.append(peer.next_id)
        peer.send({"jsonrpc": "2.0", "id": peer.next_id, "method": method, "params": params})
        peer.next_id += 1
    return [peer.reply_to(request_id) for request_id in ids]


def result(reply):
    assert "result" in reply, reply
    return reply["result"]


def test_a_search_after_a_save_to_a_new_index_sees_it(peer):
    _, searched, facets = pipeline(
        peer, ("saveObjects", {"index": "fresh", "objects": batch(4000)}),
        ("search", {"index": "fresh", "query": "amber", "hitsPerPage": 1}),
        ("getObjects", {"index": "fresh", "objectIDs": ["3999"]}))
    assert result(searched)["nbHits"] == 4000
    assert result(facets)["results"][0]["objectID"] == "3999"


def test_replace_delete_and_settings_are_seen_by_the_next_read(peer):
    result(peer.request("saveObjects", {"index": "t", "objects": batch(3000)}))
    replies = pipeline(
        peer, ("saveObjects", {"index": "t", "objects": batch(3000, word="zephyr")}),
        ("search", {"index": "t", "query": "amber", "hitsPerPage": 0}),
        ("deleteObjects", {"index": "t", "objectIDs": [str(n) for n in range(0, 3000, 2)]}),
        ("search", {"index": "t", "query": "zephyr", "hitsPerPage": 0}),
        ("browse", {"index": "t", "hitsPerPage": 1}),
        ("setSettings", {"index": "t", "settings": {"searchableAttributes": ["body"]}}),
        ("search", {"index": "t", "query": "zephyr", "hitsPerPage": 0}),
        ("getSettings", {"index": "t"}),
        ("clearObjects", {"index": "t"}),
        ("listIndices", {}))
    assert result(replies[1])["nbHits"] == 0, "the replaced records no longer say amber"
    assert result(replies[3])["nbHits"] == 1500, "the deleted half is gone"
    assert result(replies[4])["nbHits"] == 1500
    assert result(replies[6])["nbHits"] == 0, "title is no longer searchable"
    assert result(replies[7])["searchableAttributes"] == ["body"]
    assert [i["entries"] for i in result(replies[9])["items"] if i["name"] == "t"] == [0]


def test_an_import_is_seen_by_the_next_search(peer, short_tmp):
    path = os.path.join(short_tmp, "rows.ndjson")
    with open(path, "w") as f:
        f.writelines(json.dumps(record) + "\n" for record in batch(20000))
    _, searched = pipeline(peer, ("importFile", {"index": "imported", "path": path}),
                           ("search", {"index": "imported", "query": "", "hitsPerPage": 0}))
    assert result(searched)["nbHits"] == 20000


def test_a_replica_read_after_a_primary_write_sees_it(peer):
    result(peer.request("setSettings", {"index": "p", "settings": {"replicas": ["virtual(p_by_n)"],
                                                                    "attributesForFaceting": ["n"]}}))
    _, searched = pipeline(peer, ("saveObjects", {"index": "p", "objects": batch(3000)}),
                           ("search", {"index": "p_by_n", "query": "", "hitsPerPage": 0}))
    assert result(searched)["nbHits"] == 3000


def test_a_session_change_after_a_write_searches_the_written_records(peer):
    result(peer.request("saveObjects", {"index": "s", "objects": batch(10)}))
    result(peer.request("openSession", {"session": "rw", "searchers": [{"type": "hits", "index": "s"}]}))
    _, changed = pipeline(peer, ("saveObjects", {"index": "s", "objects": batch(3000, start=10, word="quartz")}),
                          ("setQuery", {"session": "rw", "query": "quartz"}))
    version = result(changed)["stateVersion"]
    while True:
        pushed = [n for n in peer.notifications
                  if n["method"] == "resultsUpdated" and n["params"]["stateVersion"] == version]
        if pushed:
            break
        message = peer.receive()
        assert message is not None, "no resultsUpdated for the new query"
        if "method" in message:
            peer.notifications.append(message)
    assert pushed[0]["params"]["results"][0]["nbHits"] == 3000


def test_a_read_of_another_index_does_not_wait(peer, short_tmp):
    result(peer.request("saveObjects", {"index": "other", "objects": batch(5)}))
    path = os.path.join(short_tmp, "big.ndjson")
    with open(path, "w") as f:
        f.writelines(json.dumps(record) + "\n" for record in batch(30000))
    import_id = peer.next_id
    peer.send({"jsonrpc": "2.0", "id": import_id, "method": "importFile", "params": {"index": "big", "path": path}})
    peer.next_id += 1
    searched = peer.request("search", {"index": "other", "query": "amber"})
    assert result(searched)["nbHits"] == 5
    pending = [m for m in peer.notifications if m.get("id") == import_id]
    assert pending == [], "the other index's search was answered before the import finished"
    assert "result" in peer.reply_to(import_id, timeout=120)


def replies_in_any_order(peer, *calls):
    """`pipeline` for writes to several indices, whose replies may come in another order than sent."""
    ids = []
    for method, params in calls:
        ids.append(peer.next_id)
        peer.send({"jsonrpc": "2.0", "id": peer.next_id, "method": method, "params": params})
        peer.next_id += 1
    replies = {}
    while len(replies) < len(ids):
        message = peer.receive()
        assert message is not None, f"no reply to {sorted(set(ids) - set(replies))}"
        if "id" in message and "method" not in message:
            replies[message["id"]] = message
    return [replies[request_id] for request_id in ids]


def test_a_copy_waits_for_the_writes_to_both_indices_and_their_reads_wait_for_it(peer):
    replies = replies_in_any_order(
        peer, ("saveObjects", {"index": "src", "objects": batch(3000)}),
        ("saveObjects", {"index": "dst", "objects": batch(10, start=5000, word="zephyr")}),
        ("operationIndex", {"index": "src", "operation": "move", "destination": "dst"}),
        ("search", {"index": "dst", "query": "amber", "hitsPerPage": 0}),
        ("saveObjects", {"index": "dst", "objects": batch(1, start=9000, word="zephyr")}),
        ("search", {"index": "dst", "query": "", "hitsPerPage": 0}),
        ("listIndices", {}))
    assert result(replies[3])["nbHits"] == 3000, "the search waited for the move, which waited for the save to its source"
    assert result(replies[5])["nbHits"] == 3001, "a write after the move applies after it"
    assert [i["name"] for i in result(replies[6])["items"]] == ["dst"]
