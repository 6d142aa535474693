"""Search sessions over the real daemon: three clients on one socket, both framings.

Checked here (protocol/README.md "Sharing model"):
1. A opens session "s" with a hits searcher on one index and a facets searcher on another; B and C attach.
2. A types as fast as it can: A and B end with results for the final query; stateVersion strictly increases;
   no push for an older version ever follows one for a newer version; each reply follows its stateChanged.
3. C never reads, yet A and B are served; when C drains, it ends with the newest state and results, in order.
4. B toggles a filter in an or-group: A sees the stateChanged and results with isRefined (and, with the
   engine's part 2, disjunctive counts).
5. Relevant sort: a clear error on a non-virtual index; on a virtual replica the toggle shows in the state
   (and, with the engine's part 2, the results carry the texts).
6. loadPage for a superseded version is -32801; for the current version it returns that page.
"""
import socket
import threading
import time

import pytest

from harness import TIMEOUT

WORDS = ["music", "muse", "mustang", "mushroom", "museum", "mural", "river", "stone", "light", "echo"]
GENRES = ["rock", "pop", "jazz"]
TYPED = "music museum mustang"


def songs(count=90):
    return [{"objectID": str(i), "title": f"{WORDS[i % len(WORDS)]} {WORDS[(i * 7) % len(WORDS)]} {i}",
             "genre": GENRES[i % 3], "year": 1960 + i % 60, "notes": "lorem ipsum dolor " * 60,
             "category": {"lvl0": "Music", "lvl1": f"Music > {GENRES[i % 3].title()}"}}
            for i in range(count)]


def other_framing(framing):
    return "ndjson" if framing == "lsp" else "lsp"


@pytest.fixture
def shop(daemon, framing):
    """Indices made by the test: songs (facets genre, year; a virtual replica by year) and artists."""
    admin = daemon.connect(framing)
    admin.result("setSettings", {"index": "songs", "settings": {
        "searchableAttributes": ["title"], "attributesForFaceting": ["genre", "year", "category.lvl0", "category.lvl1"],
        "replicas": ["virtual(songs_year_desc)"]}})
    admin.result("saveObjects", {"index": "songs", "objects": songs()})
    admin.result("setSettings", {"index": "songs_year_desc", "settings": {"customRanking": ["desc(year)"]}})
    admin.result("saveObjects", {"index": "artists", "objects": [
        {"objectID": str(i), "name": f"{WORDS[i % len(WORDS)]} band", "genre": GENRES[i % 3]} for i in range(30)]})
    admin.result("setSettings", {"index": "artists", "settings": {"attributesForFaceting": ["searchable(genre)"]}})
    admin.close()
    return daemon


def open_session(peer, searchers=None):
    params = {"session": "s"}
    if searchers is not None:
        params["searchers"] = searchers
    return peer.result("openSession", params)


SEARCHERS = [{"type": "hits", "index": "songs", "hitsPerPage": 5, "facets": ["genre"],
              "attributesToRetrieve": ["title", "genre", "year"]},
             {"type": "facets", "index": "artists", "attribute": "genre"}]


def pushes(peer, method=None):
    return [n for n in peer.notifications if n.get("method") in ((method,) if method else ("stateChanged", "resultsUpdated"))]


def drain_until(peer, condition, timeout=TIMEOUT):
    """Reads into peer.notifications (replies too, into peer.replies) until condition(peer) holds."""
    deadline = time.monotonic() + timeout
    peer.replies = getattr(peer, "replies", {})
    while not condition(peer):
        message = peer.receive(max(0.0, deadline - time.monotonic()))
        assert message is not None, f"timed out; last pushes: {[(n['method'], n['params'].get('stateVersion')) for n in pushes(peer)[-4:]]}"
        peer.received = getattr(peer, "received", 0) + 1
        message["order"] = peer.received
        if "method" in message:
            peer.notifications.append(message)
        else:
            peer.replies[message["id"]] = message


def results_for(peer, version):
    return any(n["method"] == "resultsUpdated" and n["params"]["stateVersion"] == version for n in pushes(peer))


def assert_monotonic(peer):
    newest = 0
    states = [n["params"]["stateVersion"] for n in pushes(peer, "stateChanged")]
    assert states == sorted(set(states)), f"stateVersion not strictly increasing: {states}"
    results = [(n["params"]["stateVersion"], n["params"].get("exhaustive", True)) for n in pushes(peer, "resultsUpdated")]
    # A cluster's exact completion repeats the version it completes, right after that version's estimate
    # (protocol/methods/resultsUpdated.md); every other push is of a newer version than the one before.
    firsts = [version for index, (version, exact) in enumerate(results)
              if not (index and exact and results[index - 1] == (version, False))]
    assert firsts == sorted(set(firsts)), f"results not strictly increasing: {results}"
    for push in pushes(peer):
        version = push["params"]["stateVersion"]
        assert version >= newest, f"{push['method']} for version {version} after version {newest}"
        newest = version


def hits_result(push):
    return push["params"]["results"][0]


def test_typing_reaches_every_frontend_in_order(shop, framing):
    a = shop.connect(framing)
    b = shop.connect(other_framing(framing))
    c = shop.connect(framing)
    c.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    opened = open_session(a, SEARCHERS)
    assert opened["created"] and opened["searchers"] == ["s1", "s2"]
    attached = open_session(b)
    assert not attached["created"] and attached["stateVersion"] == opened["stateVersion"]
    open_session(c)

    base = opened["stateVersion"]
    ids = []
    for length in range(1, len(TYPED) + 1):  # pipelined: no waiting for replies
        ids.append(f"type-{length}")
        a.send({"jsonrpc": "2.0", "id": ids[-1], "method": "setQuery", "params": {"session": "s", "query": TYPED[:length]}})
    final = base + len(TYPED)
    drain_until(a, lambda p: len(p.replies) == len(ids) and results_for(p, final))
    drain_until(b, lambda p: results_for(p, final))

    for length, request_id in enumerate(ids, start=1):
        reply = a.replies[request_id]
        assert reply["result"]["stateVersion"] == base + length, reply
        state = next(n for n in pushes(a, "stateChanged") if n["params"]["stateVersion"] == base + length)
        assert state["order"] < reply["order"], "the reply came before its stateChanged"
    for peer in (a, b):
        assert_monotonic(peer)
        last = pushes(peer, "resultsUpdated")[-1]["params"]
        assert last["stateVersion"] == final
        assert [r["searcher"] for r in last["results"]] == ["s1", "s2"]
        assert last["results"][0]["query"] == TYPED
        assert pushes(peer, "stateChanged")[-1]["params"]["state"]["query"] == TYPED
    assert [n["params"]["stateVersion"] for n in pushes(b, "stateChanged")] == list(range(base + 1, final + 1))

    # C never read; the others were served meanwhile. Now it drains and ends with the newest.
    c.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
    drain_until(c, lambda p: results_for(p, final), timeout=30)
    assert_monotonic(c)
    assert pushes(c, "stateChanged")[-1]["params"]["stateVersion"] == final
    assert shop.process.poll() is None


def test_a_stalled_frontend_does_not_delay_the_others(shop, framing):
    a = shop.connect(framing)
    b = shop.connect(other_framing(framing))
    stalled = shop.connect(framing)
    stalled.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    open_session(a, [{"type": "hits", "index": "songs", "hitsPerPage": 50}])
    open_session(stalled)
    open_session(b)
    for round_ in range(40):  # ~40 × 150 KB of pushes that the stalled client never reads
        query = "m" if round_ % 2 else "mu"
        version = a.result("setQuery", {"session": "s", "query": query})["stateVersion"]
        drain_until(b, lambda p: results_for(p, version))
    assert_monotonic(b)
    stalled.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
    drain_until(stalled, lambda p: results_for(p, version), timeout=30)
    assert_monotonic(stalled)


def toggle_rock(peer):
    return peer.result("toggleFilter", {"session": "s", "filter": {"attribute": "genre", "value": "rock"},
                                        "group": {"name": "genre", "operator": "or"}})


def test_a_filter_toggled_by_one_frontend_is_seen_by_the_other(shop, framing):
    a = shop.connect(framing)
    b = shop.connect(other_framing(framing))
    open_session(a, SEARCHERS)
    open_session(b)
    version = toggle_rock(b)["stateVersion"]
    drain_until(a, lambda p: results_for(p, version))
    state = pushes(a, "stateChanged")[-1]["params"]
    assert state["stateVersion"] == version
    assert state["state"]["filters"] == '( "genre":"rock" )'
    assert state["state"]["filterGroups"] == [{"name": "genre", "operator": "or", "type": "facet",
                                               "filters": [{"attribute": "genre", "value": "rock"}],
                                               "rendered": '( "genre":"rock" )'}]
    genre = hits_result(pushes(a, "resultsUpdated")[-1])["facets"]["genre"]
    assert genre[0]["value"] == "rock" and genre[0]["isRefined"] is True, genre
    assert all(not item["isRefined"] for item in genre[1:]), genre
    # Toggling again removes it, and the group disappears.
    version = toggle_rock(a)["stateVersion"]
    drain_until(b, lambda p: results_for(p, version))
    assert pushes(b, "stateChanged")[-1]["params"]["state"]["filterGroups"] == []


def test_or_group_counts_are_disjunctive(shop, framing):
    a = shop.connect(framing)
    b = shop.connect(other_framing(framing))
    open_session(a, SEARCHERS)
    open_session(b)
    version = toggle_rock(b)["stateVersion"]
    drain_until(a, lambda p: results_for(p, version))
    hits = hits_result(pushes(a, "resultsUpdated")[-1])
    assert hits["nbHits"] == 30, "only rock songs match"
    counts = {item["value"]: (item["count"], item["isRefined"]) for item in hits["facets"]["genre"]}
    assert counts == {"rock": (30, True), "pop": (30, False), "jazz": (30, False)}, "other genres keep their counts"
    facet_hits = pushes(a, "resultsUpdated")[-1]["params"]["results"][1]["facetHits"]
    assert {(h["value"], h["isRefined"]) for h in facet_hits} == {("rock", True), ("pop", False), ("jazz", False)}


def test_relevant_sort_on_a_plain_index_is_a_clear_error(shop, framing):
    a = shop.connect(framing)
    open_session(a, SEARCHERS)
    reply = a.request("toggleRelevantSort", {"session": "s", "searcher": "s1"})
    assert reply["error"]["code"] == -32602
    assert "not a virtual replica" in reply["error"]["message"]
    reply = a.request("toggleRelevantSort", {"session": "s", "searcher": "s2"})
    assert reply["error"]["code"] == -32602 and "facets searcher" in reply["error"]["message"]


def switch_to_replica_and_toggle(a):
    open_session(a, SEARCHERS)
    a.result("setQuery", {"session": "s", "query": "mu"})
    a.result("setIndex", {"session": "s", "searcher": "s1", "index": "songs_year_desc"})
    return a.result("toggleRelevantSort", {"session": "s", "searcher": "s1"})["stateVersion"]


def test_relevant_sort_toggle_shows_in_the_state(shop, framing):
    a = shop.connect(framing)
    version = switch_to_replica_and_toggle(a)
    drain_until(a, lambda p: results_for(p, version))
    searcher = pushes(a, "stateChanged")[-1]["params"]["state"]["searchers"][0]
    assert searcher["index"] == "songs_year_desc" and searcher["relevancyStrictness"] == 0
    version = a.result("toggleRelevantSort", {"session": "s", "searcher": "s1"})["stateVersion"]
    drain_until(a, lambda p: results_for(p, version))
    assert pushes(a, "stateChanged")[-1]["params"]["state"]["searchers"][0]["relevancyStrictness"] is None


def test_relevant_sort_results_carry_the_texts(shop, framing):
    a = shop.connect(framing)
    version = switch_to_replica_and_toggle(a)
    drain_until(a, lambda p: results_for(p, version))
    hits = hits_result(pushes(a, "resultsUpdated")[-1])
    assert hits["appliedRelevancyStrictness"] == 0
    assert hits["nbSortedHits"] == hits["nbHits"]
    assert hits["relevantSort"] == {"priority": "hitsCount", "hint": "Currently showing all results.",
                                    "toggleTitle": "Show more relevant results"}
    version = a.result("toggleRelevantSort", {"session": "s", "searcher": "s1"})["stateVersion"]
    drain_until(a, lambda p: results_for(p, version))
    hits = hits_result(pushes(a, "resultsUpdated")[-1])
    assert hits["relevantSort"]["priority"] == "relevancy"
    assert hits["relevantSort"]["toggleTitle"] == "Show all results"


def test_load_page_of_a_superseded_version_is_content_modified(shop, framing):
    a = shop.connect(framing)
    b = shop.connect(other_framing(framing))
    open_session(a, SEARCHERS)
    open_session(b)
    old = a.result("setQuery", {"session": "s", "query": "mu"})["stateVersion"]
    page = a.result("loadPage", {"session": "s", "searcher": "s1", "page": 1, "stateVersion": old})
    assert page["stateVersion"] == old and page["result"]["page"] == 1
    assert page["result"]["hits"] and page["result"]["query"] == "mu"
    b.result("setQuery", {"session": "s", "query": "mus"})
    reply = a.request("loadPage", {"session": "s", "searcher": "s1", "page": 1, "stateVersion": old})
    assert reply["error"]["code"] == -32801, reply
    assert reply["error"]["data"]["stateVersion"] == old + 1


def test_sessions_outlive_their_connections_for_the_grace_period(shop, framing):
    a = shop.connect(framing)
    open_session(a, SEARCHERS)
    a.result("setQuery", {"session": "s", "query": "mu"})
    a.close()
    b = shop.connect(other_framing(framing))
    listed = b.result("listSessions")["sessions"]
    assert [(s["session"], s["searchers"]) for s in listed] == [("s", 2)]
    assert b.result("getState", {"session": "s"})["state"]["query"] == "mu"
    reopened = open_session(b)
    assert not reopened["created"] and reopened["state"]["query"] == "mu"
    drain_until(b, lambda p: results_for(p, reopened["stateVersion"]))
    assert b.result("closeSession", {"session": "s"}) == {"session": "s", "detached": True}
    missing = b.request("getState", {"session": "nope"})
    assert missing["error"]["code"] == -32602 and missing["error"]["data"]["parameter"] == "session"


def test_bad_session_params_name_the_parameter(shop, framing):
    a = shop.connect(framing)
    reply = a.request("openSession", {"session": "s", "searchers": [{"type": "hits", "index": "nope"}]})
    assert reply["error"]["data"]["parameter"] == "searchers[0].index"
    open_session(a, SEARCHERS)
    reply = a.request("toggleFilter", {"session": "s", "filter": {"attribute": "genre"}, "group": {"name": "g", "operator": "or"}})
    assert reply["error"]["data"]["parameter"] == "filter.value"
    reply = a.request("toggleFilter", {"session": "s", "filter": {"tag": "x"}, "group": {"name": "g", "operator": "xor"}})
    assert reply["error"]["data"]["parameter"] == "group.operator"
    reply = a.request("loadPage", {"session": "s", "searcher": "s2", "page": 0, "stateVersion": 1})
    assert reply["error"]["code"] == -32602 and "facets searcher" in reply["error"]["message"]


def test_session_sharing_with_the_grace_period_over(data_dir, short_tmp, framing):
    """--session-grace 0: a session nobody is attached to is freed."""
    from harness import SocketDaemon
    import os
    daemon = SocketDaemon(data_dir, os.path.join(short_tmp, "g.sock"), extra=["--session-grace", "0"])
    try:
        a = daemon.connect(framing)
        a.result("openSession", {"session": "brief"})
        a.result("closeSession", {"session": "brief"})
        deadline = time.monotonic() + TIMEOUT
        while a.result("listSessions")["sessions"] and time.monotonic() < deadline:
            time.sleep(0.02)
        assert a.result("listSessions")["sessions"] == []
    finally:
        daemon.kill()


def test_hierarchical_menu_selects_and_moves_up(shop, framing):
    a = shop.connect(framing)
    b = shop.connect(other_framing(framing))
    open_session(a, SEARCHERS)
    open_session(b)
    levels = ["category.lvl0", "category.lvl1"]

    def pick(path):
        version = a.result("setHierarchicalFilter", {"session": "s", "attributes": levels, "path": path})["stateVersion"]
        drain_until(b, lambda p: results_for(p, version))
        return pushes(b, "stateChanged")[-1]["params"]["state"]

    state = pick("Music > Rock")
    assert state["hierarchicalMenus"] == [{"name": "category.lvl0", "attributes": levels, "separator": " > ", "path": "Music > Rock"}]
    assert state["filters"] == '( "category.lvl1":"Music > Rock" )'
    results = hits_result(pushes(b, "resultsUpdated")[-1])["facets"]
    assert set(levels) <= set(results), "every level is listed"
    siblings = {entry["value"]: entry for entry in results["category.lvl1"]}
    assert len(siblings) == 3, "the deeper selection is relaxed: every sibling is listed"
    assert siblings["Music > Rock"]["isRefined"] and siblings["Music > Rock"]["count"] == 30
    assert pick("Music > Rock")["hierarchicalMenus"][0]["path"] == "Music", "the same path again goes up one level"
    state = pick("Music")
    assert state["hierarchicalMenus"][0]["path"] is None and state["filterGroups"] == []
    reply = a.request("setHierarchicalFilter", {"session": "s", "attributes": levels, "path": "a > b > c"})
    assert reply["error"]["code"] == -32602 and reply["error"]["data"]["parameter"] == "path"


def test_an_editor_on_stdio_and_a_script_on_the_socket_share_a_session(data_dir, short_tmp, framing):
    """`quarry serve --listen PATH`: the editor's stdio connection and a script's socket connection."""
    import os
    from harness import SocketDaemon, StdioDaemon
    path = os.path.join(short_tmp, "join.sock")
    editor = StdioDaemon(data_dir, framing, extra=["--listen", path])
    try:
        editor.peer.initialize()
        editor.peer.result("saveObjects", {"index": "notes", "objects": songs(12)})
        editor.peer.result("openSession", {"session": "notes", "searchers": [{"type": "hits", "index": "notes"}]})
        deadline = time.monotonic() + TIMEOUT
        while not os.path.exists(path) and time.monotonic() < deadline:
            time.sleep(0.02)
        script = SocketDaemon.__new__(SocketDaemon)
        script.path = path
        client = script.connect(other_framing(framing))
        client.result("openSession", {"session": "notes"})
        version = client.result("setQuery", {"session": "notes", "query": "muse"})["stateVersion"]
        drain_until(editor.peer, lambda p: results_for(p, version))
        assert pushes(editor.peer, "stateChanged")[-1]["params"]["state"]["query"] == "muse"
        assert hits_result(pushes(editor.peer, "resultsUpdated")[-1])["nbHits"] > 0
    finally:
        editor.kill()


def test_changes_from_two_frontends_apply_once_each_in_one_order(shop, framing):
    a = shop.connect(framing)
    b = shop.connect(other_framing(framing))
    base = open_session(a, SEARCHERS)["stateVersion"]
    open_session(b)
    count = 40
    for i in range(count):  # both type at once, without waiting
        a.send({"jsonrpc": "2.0", "id": f"a{i}", "method": "setQuery", "params": {"session": "s", "query": f"a{i}"}})
        b.send({"jsonrpc": "2.0", "id": f"b{i}", "method": "setQuery", "params": {"session": "s", "query": f"b{i}"}})
    final = base + 2 * count
    for peer in (a, b):
        drain_until(peer, lambda p: len(p.replies) == count and results_for(p, final))
    versions = sorted(r["result"]["stateVersion"] for peer in (a, b) for r in peer.replies.values())
    assert versions == list(range(base + 1, final + 1)), "every change got its own version"
    for peer in (a, b):
        assert_monotonic(peer)
        announced = [n["params"]["stateVersion"] for n in pushes(peer, "stateChanged")]
        assert [v for v in announced if v > base] == list(range(base + 1, final + 1))
        ordered = sorted(peer.replies.values(), key=lambda r: r["order"])
        assert [r["result"]["stateVersion"] for r in ordered] == sorted(r["result"]["stateVersion"] for r in ordered), \
            "one connection's changes apply in its order"
    last_query = pushes(a, "stateChanged")[-1]["params"]["state"]["query"]
    assert pushes(b, "resultsUpdated")[-1]["params"]["results"][0]["query"] == last_query


def test_each_frontend_gets_match_ranges_in_its_own_encoding(daemon):
    """One session, one search, two encodings: the pushes and loadPage follow each connection's negotiation."""
    admin = daemon.connect()
    admin.result("saveObjects", {"index": "names", "objects": [{"objectID": "1", "name": "😀 Émile Zola"}]})
    utf16 = daemon.connect("lsp", initialize=False)
    utf16.initialize(["utf-16"])
    utf8 = daemon.connect("ndjson", initialize=False)
    utf8.initialize(["utf-8"])
    utf32 = daemon.connect("ndjson", initialize=False)
    assert utf32.initialize(["utf-32", "utf-16"])["capabilities"]["positionEncoding"] == "utf-32"
    open_session(utf16, [{"type": "hits", "index": "names"}])
    open_session(utf8)
    open_session(utf32)
    version = utf16.result("setQuery", {"session": "s", "query": "zola"})["stateVersion"]
    # The emoji is 2 UTF-16 units, 4 UTF-8 bytes, 1 code point; É is 1, 2 or 1.
    expected = {utf16: [[9, 13]], utf8: [[12, 16]], utf32: [[8, 12]]}
    for peer, ranges in expected.items():
        drain_until(peer, lambda p: results_for(p, version))
        push = [n for n in pushes(peer, "resultsUpdated") if n["params"]["stateVersion"] == version][-1]
        hit = hits_result(push)["hits"][0]
        assert hit["_matchRanges"] == {"name": ranges}
        assert not [key for key in hit if key.startswith("_matchRangesUTF")], "only the negotiated ranges go out"
        page = peer.result("loadPage", {"session": "s", "searcher": "s1", "page": 0, "stateVersion": version})
        assert page["result"]["hits"][0]["_matchRanges"] == {"name": ranges}


def test_one_shot_search_ranges_in_each_encoding(daemon):
    """`search` counts ranges in the connection's encoding: UTF-8 bytes, UTF-16 units, or code points."""
    admin = daemon.connect()
    admin.result("saveObjects", {"index": "mixed", "objects": [
        {"objectID": "1", "title": "Crème brûlée 🍮 at 東京 café", "tags": ["😀 émoji", "東京 tower"]}]})
    text = "Crème brûlée 🍮 at 東京 café"
    cases = {"utf-8": lambda s: len(s.encode("utf-8")), "utf-16": lambda s: len(s.encode("utf-16-le")) // 2,
             "utf-32": len}
    for encoding, measure in cases.items():
        peer = daemon.connect("lsp", initialize=False)
        assert peer.initialize([encoding])["capabilities"]["positionEncoding"] == encoding
        for query, word in (("cafe", "café"), ("東京", "東京"), ("brulee", "brûlée")):
            hit = peer.result("search", {"index": "mixed", "query": query})["hits"][0]
            start = text.index(word)
            assert [measure(text[:start]), measure(text[:start + len(word)])] in hit["_matchRanges"]["title"], \
                (encoding, query, hit["_matchRanges"])
        hit = peer.result("search", {"index": "mixed", "query": "tower"})["hits"][0]
        assert hit["_matchRanges"]["tags.1"] == [[measure("東京 "), measure("東京 tower")]], (encoding, hit["_matchRanges"])
