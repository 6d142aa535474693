"""Index copy and move (`operationIndex`) and `deleteBy` over JSON-RPC, against the real daemon:

1. a copy replaces the destination's records and settings with the source's, and leaves the source as it was;
2. a copy with `scope` copies the settings only ("synonyms" and "rules" alone copy nothing) and keeps the
   destination's records;
3. a move replaces the destination, deletes the source, and a session on the destination sees the new records;
4. errors: an unknown source is the unknown-index error with its didYouMean; a destination equal to the source,
   a bad operation or scope is -32602 naming the parameter; none of them changes anything;
5. deleteBy deletes exactly the records a query and filters match, in one write; a bad filter or no selection at
   all is -32602 and deletes nothing;
6. a daemon killed with SIGKILL during a move restarts with the destination wholly old or wholly new, and the
   source kept unless the destination is new.
"""
import os
import signal
import time

from harness import SocketDaemon, write_ndjson

BOOKS = [{"objectID": str(n), "title": f"{word} book", "genre": genre, "year": 1990 + n}
         for n, (word, genre) in enumerate([("river", "novel"), ("stone", "poetry"), ("river", "essay"),
                                             ("cloud", "novel"), ("ember", "poetry")])]
SETTINGS = {"searchableAttributes": ["title"], "attributesForFaceting": ["genre", "year"]}


def error(reply):
    assert "error" in reply, reply
    return reply["error"]


def ids(client, index, **params):
    hits = client.result("browse", {"index": index, **params})["hits"]
    return sorted(hit["objectID"] for hit in hits)


def names(client):
    return [item["name"] for item in client.result("listIndices", {})["items"]]


def seed(client):
    client.result("setSettings", {"index": "books", "settings": SETTINGS})
    client.result("saveObjects", {"index": "books", "objects": BOOKS})
    client.result("saveObjects", {"index": "shelf", "objects": [{"objectID": "old", "title": "old river"}]})


def test_a_copy_replaces_the_destination_and_keeps_the_source(daemon):
    client = daemon.connect()
    seed(client)
    answer = client.result("operationIndex", {"index": "books", "operation": "copy", "destination": "shelf"})
    assert isinstance(answer["taskID"], int)
    assert ids(client, "shelf") == ["0", "1", "2", "3", "4"], "the destination's own record is gone"
    assert client.result("getSettings", {"index": "shelf"})["attributesForFaceting"] == ["genre", "year"]
    found = client.result("search", {"index": "shelf", "query": "river", "facets": ["genre"]})
    assert (found["nbHits"], found["facets"]["genre"]) == (2, {"essay": 1, "novel": 1})
    assert ids(client, "books") == ["0", "1", "2", "3", "4"]
    client.result("operationIndex", {"index": "books", "operation": "copy", "destination": "fresh"})
    assert ids(client, "fresh") == ["0", "1", "2", "3", "4"], "a missing destination is created"


def test_a_scoped_copy_copies_the_settings_and_keeps_the_records(daemon):
    client = daemon.connect()
    seed(client)
    client.result("operationIndex", {"index": "books", "operation": "copy", "destination": "shelf",
                                     "scope": ["synonyms", "rules"]})
    assert ids(client, "shelf") == ["old"]
    assert client.result("getSettings", {"index": "shelf"})["attributesForFaceting"] == []
    client.result("operationIndex", {"index": "books", "operation": "copy", "destination": "shelf",
                                     "scope": ["settings", "synonyms", "rules"]})
    assert ids(client, "shelf") == ["old"]
    assert client.result("getSettings", {"index": "shelf"})["searchableAttributes"] == ["title"]


def test_a_move_replaces_the_destination_and_deletes_the_source(daemon):
    client = daemon.connect()
    seed(client)
    client.result("openSession", {"session": "s", "searchers": [{"type": "hits", "index": "shelf"}]})
    client.result("operationIndex", {"index": "books", "operation": "move", "destination": "shelf"})
    assert names(client) == ["shelf"]
    assert ids(client, "shelf") == ["0", "1", "2", "3", "4"]
    assert client.result("getSettings", {"index": "shelf"})["searchableAttributes"] == ["title"]
    version = client.result("setQuery", {"session": "s", "query": "river"})["stateVersion"]
    assert pushed_hits(client, version) == 2, "the session searches the moved records"


def pushed_hits(client, version):
    while True:
        for note in client.notifications:
            if note["method"] == "resultsUpdated" and note["params"]["stateVersion"] == version:
                return note["params"]["results"][0]["nbHits"]
        message = client.receive()
        assert message is not None, "no resultsUpdated"
        if "method" in message:
            client.notifications.append(message)


def test_copy_errors_name_the_problem_and_change_nothing(daemon):
    client = daemon.connect()
    seed(client)
    unknown = error(client.request("operationIndex", {"index": "book", "operation": "move", "destination": "shelf"}))
    assert unknown["code"] == -32602 and unknown["data"]["didYouMean"] == "books", unknown
    same = error(client.request("operationIndex", {"index": "books", "operation": "copy", "destination": "books"}))
    assert (same["code"], same["data"]["parameter"]) == (-32602, "destination")
    for params, parameter in [({"operation": "clone", "destination": "x"}, "operation"),
                              ({"destination": "x"}, "operation"),
                              ({"operation": "copy"}, "destination"),
                              ({"operation": "copy", "destination": "x", "scope": ["records"]}, "scope[0]"),
                              ({"operation": "move", "destination": "x", "scope": ["settings"]}, "scope")]:
        bad = error(client.request("operationIndex", {"index": "books", **params}))
        assert (bad["code"], bad["data"]["parameter"]) == (-32602, parameter), bad
    assert names(client) == ["books", "shelf"]
    assert ids(client, "shelf") == ["old"]


def test_delete_by_deletes_exactly_the_matches(daemon):
    client = daemon.connect()
    seed(client)
    answer = client.result("deleteBy", {"index": "books", "filters": "genre:poetry"})
    assert isinstance(answer["taskID"], int)
    assert ids(client, "books") == ["0", "2", "3"]
    client.result("deleteBy", {"index": "books", "query": "river", "numericFilters": ["year >= 1992"]})
    assert ids(client, "books") == ["0", "3"]
    client.result("deleteBy", {"index": "books", "facetFilters": [["genre:nothing"]]})
    assert ids(client, "books") == ["0", "3"], "no match deletes nothing"


def test_delete_by_errors_delete_nothing(daemon):
    client = daemon.connect()
    seed(client)
    bad = error(client.request("deleteBy", {"index": "books", "filters": "year <"}))
    assert (bad["code"], bad["data"]["parameter"]) == (-32602, "filters"), bad
    empty = error(client.request("deleteBy", {"index": "books", "filters": ""}))
    assert (empty["code"], empty["data"]["parameter"]) == (-32602, "filters"), empty
    assert "clearObjects" in empty["message"]
    unknown = error(client.request("deleteBy", {"index": "book", "filters": "genre:novel"}))
    assert unknown["data"]["didYouMean"] == "books", unknown
    assert ids(client, "books") == ["0", "1", "2", "3", "4"]


def count(client, index):
    if index not in names(client):
        return None
    return client.result("search", {"index": index, "query": "", "hitsPerPage": 0})["nbHits"]


def test_kill_9_during_a_move_leaves_the_old_or_the_new_destination(short_tmp, data_dir):
    path = os.path.join(short_tmp, "m.sock")
    big = os.path.join(short_tmp, "big.ndjson")
    write_ndjson(big, 50_000)
    daemon = SocketDaemon(data_dir, path)
    client = daemon.connect()
    client.result("importFile", {"index": "big", "path": big}, timeout=120)
    client.result("saveObjects", {"index": "shelf", "objects": [{"objectID": f"s{n}"} for n in range(10)]})
    started = time.monotonic()
    client.result("operationIndex", {"index": "big", "operation": "copy", "destination": "timing"}, timeout=120)
    took = time.monotonic() - started
    client.send({"jsonrpc": "2.0", "id": "mv", "method": "operationIndex",
                 "params": {"index": "big", "operation": "move", "destination": "shelf"}})
    time.sleep(took / 2)  # about half-way through the copy the move starts with
    os.kill(daemon.process.pid, signal.SIGKILL)
    daemon.process.wait()

    daemon = SocketDaemon(data_dir, path)
    try:
        client = daemon.connect()
        shelf, source = count(client, "shelf"), count(client, "big")
        assert (shelf, source) in [(10, 50_000), (50_000, 50_000), (50_000, None)], (shelf, source)
    finally:
        daemon.kill()
