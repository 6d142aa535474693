"""Two `quarry` daemons, each with its own data directory, on one Typesense node
(issue 11: indices, settings and records live in the cluster, not in a daemon).

1. `initialize` names the backend: `capabilities.backend.name == "typesense"`.
2. Settings and records written through daemon A are listed, read and found
   through daemon B; a record written through B is found through A; a session
   opened on B over that index gets results.
3. A key file that others can read stops the daemon before it serves, with a
   message that says `chmod 600`.
4. A wrong API key makes requests fail at once with -32013 naming the node and
   its state: not a hang, not -32603.
"""
import os
import shutil
import tempfile
import time

import pytest

from harness import StdioDaemon
from typesense_nodes import without_tier_args

BACKEND_UNAVAILABLE = -32013
CATALOGUE_TRUST = 1.0  # s: how long a daemon trusts its copy of the cluster's index catalogue (backends.md)
SETTINGS = {"searchableAttributes": ["title", "body"], "attributesForFaceting": ["genre"],
            "customRanking": ["desc(year)"]}


@pytest.fixture(scope="module")
def node(typesense_node):
    """The run's node, emptied of what this module made once it is done."""
    yield typesense_node
    typesense_node.delete_all_collections()


@pytest.fixture
def workdir():
    path = tempfile.mkdtemp(prefix="qts", dir="/tmp")  # short: each daemon puts a socket in its data dir
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def start(workdir):
    """Starts `quarry serve` on stdio with its own data dir and the given flags."""
    daemons = []

    def starter(name, flags):
        data = os.path.join(workdir, name)
        os.mkdir(data)
        with without_tier_args():
            daemon = StdioDaemon(data, "ndjson", extra=flags)
        daemons.append(daemon)
        return daemon

    yield starter
    for daemon in daemons:
        daemon.kill()


def key_file(workdir, name, text, mode):
    path = os.path.join(workdir, name)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)
    return path


def node_flags(node, key_path):
    return ["--typesense-nodes", ",".join(node.nodes), "--typesense-api-key-file", key_path,
            "--typesense-indices", "all"]


def result(reply):
    assert "result" in reply, reply
    return reply["result"]


def wait_for_results(peer, version, timeout=10):
    """The resultsUpdated of `version` (or newer) for this connection."""
    deadline = time.monotonic() + timeout
    while True:
        for message in peer.notifications:
            if message["method"] == "resultsUpdated" and message["params"]["stateVersion"] >= version:
                return message["params"]["results"]
        message = peer.receive(max(0.0, deadline - time.monotonic()))
        assert message is not None, f"no resultsUpdated for version {version}"
        if "method" in message:
            peer.notifications.append(message)


def test_two_daemons_on_one_cluster_share_indices_settings_and_records(node, start):
    a = start("a", node.serve_args())
    b = start("b", node.serve_args())
    for daemon in (a, b):
        backend = daemon.peer.initialize()["capabilities"]["backend"]
        assert backend["name"] == "typesense" and backend["nodes"] == node.nodes, backend
    # B has looked before A writes: what it caches of the catalogue may be stale for up to 1 s.
    assert "shared" not in [item["name"] for item in result(b.peer.request("listIndices", {}))["items"]]

    result(a.peer.request("setSettings", {"index": "shared", "settings": SETTINGS}))
    result(a.peer.request("saveObjects", {"index": "shared", "objects": [
        {"objectID": "a1", "title": "harbor lights", "body": "written through daemon a", "genre": "jazz",
         "year": 1999}]}))
    written = time.monotonic()
    while True:
        listed = {item["name"]: item for item in result(b.peer.request("listIndices", {}))["items"]}
        if "shared" in listed:
            break
        assert time.monotonic() - written < CATALOGUE_TRUST + 2, f"B does not list A's index: {listed}"
        time.sleep(0.1)
    print(f"\nB listed A's new index {time.monotonic() - written:.2f} s after A's write")
    assert listed["shared"]["entries"] == 1
    expected_settings = result(a.peer.request("getSettings", {"index": "shared"}))
    for key, value in SETTINGS.items():
        assert expected_settings[key] == value, expected_settings
    assert result(b.peer.request("getSettings", {"index": "shared"})) == expected_settings
    found = result(b.peer.request("search", {"index": "shared", "query": "harbor"}))
    assert [hit["objectID"] for hit in found["hits"]] == ["a1"]
    assert found["hits"][0]["body"] == "written through daemon a"

    result(b.peer.request("saveObjects", {"index": "shared", "objects": [
        {"objectID": "b1", "title": "harbor fog", "body": "written through daemon b", "genre": "rock",
         "year": 2004}]}))
    found = result(a.peer.request("search", {"index": "shared", "query": "harbor"}))
    assert [hit["objectID"] for hit in found["hits"]] == ["b1", "a1"], "customRanking desc(year) puts b1 first"
    assert result(a.peer.request("getObjects", {"index": "shared", "objectIDs": ["b1"]}))["results"][0]["genre"] == "rock"

    opened = result(b.peer.request("openSession", {"session": "shared", "searchers": [
        {"type": "hits", "index": "shared", "facets": ["genre"]}]}))
    [results] = wait_for_results(b.peer, opened["stateVersion"])
    assert results["nbHits"] == 2, results
    changed = result(b.peer.request("setQuery", {"session": "shared", "query": "fog"}))
    [results] = wait_for_results(b.peer, changed["stateVersion"])
    assert [hit["objectID"] for hit in results["hits"]] == ["b1"]
    assert results["facets"]["genre"] == [{"value": "rock", "count": 1, "isRefined": False}]


def test_a_search_right_after_another_daemon_rebuilt_the_index_is_answered(node, start):
    """B rebuilds the index into a new collection (a settings change that reshapes documents) while A
    still trusts its copy of the catalogue: A's next search must be answered, from the new collection."""
    a = start("a", node.serve_args())
    b = start("b", node.serve_args())
    a.peer.initialize()
    b.peer.initialize()
    result(a.peer.request("saveObjects", {"index": "rebuilt", "objects": [
        {"objectID": "1", "title": "granite kettle", "body": "copper"}, {"objectID": "2", "title": "oak desk", "body": "granite"}]}))
    assert result(a.peer.request("search", {"index": "rebuilt", "query": "granite"}))["nbHits"] == 2
    for round in range(3):
        searchable = ["title"] if round % 2 == 0 else ["title", "body"]
        result(b.peer.request("setSettings", {"index": "rebuilt", "settings": {"searchableAttributes": searchable}}))
        answered = result(a.peer.request("search", {"index": "rebuilt", "query": "granite"}))
        assert answered["nbHits"] in (1, 2), answered  # the old or the new shape, never an error


def test_a_key_file_others_can_read_stops_the_daemon(node, start, workdir):
    with open(node.api_key_file) as f:
        readable = key_file(workdir, "readable-key", f.read(), 0o644)
    daemon = start("readable", node_flags(node, readable))
    code = daemon.wait()
    message = daemon.stderr()
    assert code != 0 and "chmod 600" in message and readable in message, (code, message)


def test_a_wrong_api_key_fails_requests_with_the_node_state(node, start, workdir):
    wrong = key_file(workdir, "wrong-key", "not-the-key", 0o600)
    daemon = start("wrong", node_flags(node, wrong))
    daemon.peer.initialize()
    for method, params in (("listIndices", {}), ("search", {"index": "shared", "query": "harbor"}),
                           ("saveObjects", {"index": "shared", "objects": [{"objectID": "x", "title": "x"}]})):
        began = time.monotonic()
        reply = daemon.peer.request(method, params, timeout=30)
        took = time.monotonic() - began
        assert took < 5, f"{method} took {took:.1f} s to fail"
        assert "error" in reply, reply
        assert reply["error"]["code"] == BACKEND_UNAVAILABLE, reply
        assert node.nodes[0] in reply["error"]["message"], reply
