"""Fast answers first, exact counts after (issue 30), on the real `quarry` binary and a real
Typesense 0.24.1 node, with 400 records whose one-letter prefix `c` expands to 80 words: more
than Typesense's default 4 prefix candidates, so its fast answer undercounts.

1. A session's first `resultsUpdated` for `c` says its counts are estimates (`exhaustive: false`,
   `exhaustive.nbHits`, `exhaustiveNbHits`, `exhaustiveFacetsCount` false); a second push of the
   same version follows with `exhaustive: true`, every flag true and the exact counts (those of
   a one-shot exact `search`, and of a brute-force count over the records).
2. Typing fast (pipelined `setQuery`, 10 rounds): no push is for a version older than one
   already pushed, and a version's exact completion never follows a newer version's answer.
3. One-shot `search`: `counts: "fast"` may answer with estimates and says so; the default and
   `counts: "exact"` answer exactly; any other value is -32602 naming `counts`.
4. The embedded engine always answers exact, says so, and pushes each version once.
"""
import os
import random
import shutil
import tempfile
import time

import pytest

from harness import StdioDaemon
from typesense_nodes import without_tier_args

INVALID_PARAMS = -32602
WORDS = [f"c{a}{b}x" for a in "aeiou" for b in "bdfglmnprstvwyzk"[:16]]  # 80 words starting with c
COLORS = ["red", "blue", "green"]


def records():
    rng = random.Random(30)
    return [{"objectID": str(i), "title": f"{rng.choice(WORDS)} item {i}", "color": rng.choice(COLORS)} for i in range(400)]


@pytest.fixture(scope="module")
def node(typesense_node):
    yield typesense_node
    typesense_node.delete_all_collections()


@pytest.fixture
def workdir():
    path = tempfile.mkdtemp(prefix="qte", dir="/tmp")
    yield path
    shutil.rmtree(path, ignore_errors=True)


def start(workdir, flags):
    data = os.path.join(workdir, "data")
    os.mkdir(data)
    with without_tier_args():
        daemon = StdioDaemon(data, "ndjson", extra=flags)
    daemon.peer.initialize()
    return daemon


def result(reply):
    assert "result" in reply, reply
    return reply["result"]


def load(peer):
    result(peer.request("setSettings", {"index": "things", "settings": {
        "searchableAttributes": ["title"], "attributesForFaceting": ["color"]}}))
    result(peer.request("saveObjects", {"index": "things", "objects": records()}))


@pytest.fixture
def cluster_peer(node, workdir):
    daemon = start(workdir, node.serve_args())
    load(daemon.peer)
    yield daemon.peer
    daemon.kill()


@pytest.fixture
def embedded_peer(workdir):
    daemon = start(workdir, [])
    load(daemon.peer)
    yield daemon.peer
    daemon.kill()


def receive_until(peer, condition, timeout=20):
    deadline = time.monotonic() + timeout
    while not condition():
        message = peer.receive(max(0.0, deadline - time.monotonic()))
        assert message is not None, f"timed out; pushes: {summary(peer)}"
        if "method" in message:
            peer.notifications.append(message)


def results_pushes(peer):
    return [n["params"] for n in peer.notifications if n["method"] == "resultsUpdated"]


def summary(peer):
    return [(p["stateVersion"], p["exhaustive"]) for p in results_pushes(peer)]


def flags(hits):
    return (hits["exhaustive"]["nbHits"], hits["exhaustive"]["facetsCount"], hits["exhaustiveNbHits"], hits["exhaustiveFacetsCount"])


def exact_count(prefix):
    return sum(1 for r in records() if any(w.startswith(prefix) for w in r["title"].split()))


def open_session(peer):
    return result(peer.request("openSession", {"session": "s", "searchers": [
        {"type": "hits", "index": "things", "hitsPerPage": 5, "facets": ["color"]}]}))


def test_a_one_letter_prefix_gets_an_estimate_then_the_exact_counts(cluster_peer):
    open_session(cluster_peer)
    version = result(cluster_peer.request("setQuery", {"session": "s", "query": "c"}))["stateVersion"]
    of_version = lambda: [p for p in results_pushes(cluster_peer) if p["stateVersion"] == version]
    receive_until(cluster_peer, lambda: any(p["exhaustive"] for p in of_version()))
    first, exact = of_version()
    assert (first["exhaustive"], exact["exhaustive"]) == (False, True), summary(cluster_peer)
    estimate, final = first["results"][0], exact["results"][0]
    assert flags(estimate) == (False, False, False, False), estimate
    assert flags(final) == (True, True, True, True), final
    expected = result(cluster_peer.request("search", {"index": "things", "query": "c", "facets": ["color"]}))
    assert final["nbHits"] == expected["nbHits"] == exact_count("c") == 400
    assert estimate["nbHits"] < final["nbHits"], "the fast answer was expected to undercount"
    counts = {item["value"]: item["count"] for item in final["facets"]["color"]}
    assert counts == expected["facets"]["color"]
    assert sum(counts.values()) == 400


def test_typing_fast_never_delivers_an_older_completion_after_a_newer_answer(cluster_peer):
    open_session(cluster_peer)
    typed = "cabx item"
    for round in range(10):
        cluster_peer.notifications.clear()
        queries = [typed[:n] for n in range(1, len(typed) + 1)] if round % 2 == 0 else ["c", "ce", "c", "ci", "co", "c"]
        for i, query in enumerate(queries):
            cluster_peer.send({"jsonrpc": "2.0", "id": f"r{round}-{i}", "method": "setQuery",
                               "params": {"session": "s", "query": query}})
        receive_until(cluster_peer, lambda: any(p["exhaustive"] and p["results"][0]["query"] == queries[-1]
                                               for p in results_pushes(cluster_peer)))
        time.sleep(0.2)  # room for a late completion to show
        while (message := cluster_peer.receive(0.05)) is not None:
            if "method" in message:
                cluster_peer.notifications.append(message)
        newest, completed = 0, set()
        for push in results_pushes(cluster_peer):
            version = push["stateVersion"]
            assert version >= newest, f"results for version {version} after version {newest}: {summary(cluster_peer)}"
            if version == newest:
                assert push["exhaustive"] and version not in completed, f"a second push that is no completion: {summary(cluster_peer)}"
            if push["exhaustive"]:
                completed.add(version)
            newest = version
        assert results_pushes(cluster_peer)[-1]["exhaustive"], summary(cluster_peer)


def test_one_shot_search_chooses_fast_or_exact(cluster_peer):
    fast = result(cluster_peer.request("search", {"index": "things", "query": "c", "facets": ["color"], "counts": "fast"}))
    assert flags(fast) == (False, False, False, False), fast
    assert fast["nbHits"] < 400
    for params in ({}, {"counts": "exact"}):
        exact = result(cluster_peer.request("search", {"index": "things", "query": "c", "facets": ["color"], **params}))
        assert flags(exact) == (True, True, True, True), exact
        assert exact["nbHits"] == 400
    # No word: fast changes nothing, and says so.
    everything = result(cluster_peer.request("search", {"index": "things", "query": "", "facets": ["color"], "counts": "fast"}))
    assert flags(everything) == (True, True, True, True) and everything["nbHits"] == 400
    reply = cluster_peer.request("search", {"index": "things", "query": "c", "counts": "quick"})
    assert reply["error"]["code"] == INVALID_PARAMS and "'counts'" in reply["error"]["message"], reply


def test_the_embedded_engine_answers_exact_once_per_version(embedded_peer):
    open_session(embedded_peer)
    version = result(embedded_peer.request("setQuery", {"session": "s", "query": "c"}))["stateVersion"]
    receive_until(embedded_peer, lambda: any(p["stateVersion"] == version for p in results_pushes(embedded_peer)))
    time.sleep(0.3)  # room for a wrong second push to show
    while (message := embedded_peer.receive(0.05)) is not None:
        if "method" in message:
            embedded_peer.notifications.append(message)
    pushed = [p for p in results_pushes(embedded_peer) if p["stateVersion"] == version]
    assert len(pushed) == 1 and pushed[0]["exhaustive"] is True, summary(embedded_peer)
    assert flags(pushed[0]["results"][0]) == (True, True, True, True)
    assert pushed[0]["results"][0]["nbHits"] == 400
    fast = result(embedded_peer.request("search", {"index": "things", "query": "c", "facets": ["color"], "counts": "fast"}))
    assert flags(fast) == (True, True, True, True) and fast["nbHits"] == 400
