"""One session shared by a WebSocket and a Unix-socket client (protocol/websocket.md; protocol/README.md
"Sharing model"):

1. A page opens session "shared" over the WebSocket; a socket client attaches; the socket client's query
   reaches the page as stateChanged and resultsUpdated, and the page's filter reaches the socket client.
2. The other way round: a session opened on the socket is joined over the WebSocket.
3. positionEncoding: a WebSocket client that asks for utf-16 gets highlight ranges in UTF-16 code units.
4. A WebSocket client that does not read is handled as a slow socket reader: the others are served, and when
   it drains it ends with the newest state and results, never an older version after a newer one.
5. `exit` closes the WebSocket with status 1000, and the daemon goes on serving.
"""
import os
import time

import pytest

from harness import TIMEOUT
from web_support import WebDaemon

BOOKS = [{"objectID": str(i), "title": f"{w} {i}", "genre": ["poetry", "novel", "essay"][i % 3], "price": i}
         for i, w in enumerate(["river", "stone", "light", "museum", "echo", "river stone", "café river"] * 6)]


@pytest.fixture
def web(data_dir, short_tmp):
    daemon = WebDaemon(data_dir, os.path.join(short_tmp, "q.sock"))
    admin = daemon.connect()
    admin.result("setSettings", {"index": "books", "settings": {
        "searchableAttributes": ["title"], "attributesForFaceting": ["genre", "price"]}})
    admin.result("saveObjects", {"index": "books", "objects": BOOKS})
    admin.close()
    yield daemon
    daemon.kill()


def wait_for(peer, predicate, timeout=TIMEOUT):
    """Reads pushes until one satisfies predicate; returns it."""
    for message in peer.notifications:
        if predicate(message):
            return message
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = peer.receive(max(0.0, deadline - time.monotonic()))
        if message is None:
            break
        peer.notifications.append(message)
        if predicate(message):
            return message
    raise AssertionError(f"no matching push; last: {peer.notifications[-3:]}")


def results_for(query):
    return lambda m: (m.get("method") == "resultsUpdated" and m["params"]["results"][0].get("query") == query)


def state_with(check):
    return lambda m: m.get("method") == "stateChanged" and check(m["params"]["state"])


SEARCHERS = [{"type": "hits", "index": "books", "hitsPerPage": 5, "facets": ["genre"]}]


def test_a_session_opened_over_websocket_is_joined_on_the_socket(web):
    page = web.websocket("search", encodings=["utf-16"])
    opened = page.result("openSession", {"session": "shared", "searchers": SEARCHERS})
    assert opened["created"]
    editor = web.connect()
    assert not editor.result("openSession", {"session": "shared"})["created"]

    editor.result("setQuery", {"session": "shared", "query": "river"})
    wait_for(page, state_with(lambda s: s["query"] == "river"))
    results = wait_for(page, results_for("river"))["params"]["results"][0]
    assert results["nbHits"] == len([b for b in BOOKS if "river" in b["title"]])

    page.result("toggleFilter", {"session": "shared", "group": {"name": "genre", "operator": "or"},
                                 "filter": {"attribute": "genre", "value": "poetry"}})
    wait_for(editor, state_with(lambda s: "poetry" in s["filters"]))
    page.close()
    editor.close()


def test_a_session_opened_on_the_socket_is_joined_over_websocket(web):
    editor = web.connect()
    editor.result("openSession", {"session": "editor", "searchers": SEARCHERS})
    editor.result("setQuery", {"session": "editor", "query": "stone"})
    page = web.websocket("search")
    joined = page.result("openSession", {"session": "editor"})
    assert not joined["created"] and joined["state"]["query"] == "stone"
    assert "editor" in [s["session"] for s in page.result("listSessions")["sessions"]]

    page.result("setQuery", {"session": "editor", "query": "light"})
    wait_for(editor, state_with(lambda s: s["query"] == "light"))
    wait_for(editor, results_for("light"))
    editor.result("setQuery", {"session": "editor", "query": "echo"})
    wait_for(page, results_for("echo"))
    page.close()
    editor.close()


def test_utf16_positions_over_websocket(web):
    page = web.websocket("search", encodings=["utf-16"])
    reply = page.result("search", {"index": "books", "query": "river", "filters": "price:6"})
    # "café river 6": é is one UTF-16 unit (two UTF-8 bytes); the match starts at unit 5.
    hit = reply["hits"][0]
    assert hit["title"].startswith("café")
    assert hit["_matchRanges"]["title"] == [[5, 10]]
    utf8 = web.websocket("search", encodings=["utf-8"])
    hit = utf8.result("search", {"index": "books", "query": "river", "filters": "price:6"})["hits"][0]
    assert hit["_matchRanges"]["title"] == [[6, 11]]
    utf8.close()
    page.close()


def test_a_websocket_that_does_not_read_does_not_hold_up_the_others(web):
    typist = web.connect()
    typist.result("openSession", {"session": "s", "searchers": SEARCHERS})
    sleeper = web.websocket("search")
    sleeper.result("openSession", {"session": "s"})
    watcher = web.websocket("search")
    watcher.result("openSession", {"session": "s"})
    words = ["river", "stone", "light", "museum", "echo"] * 40
    for word in words:
        typist.request("setQuery", {"session": "s", "query": word})
    final = words[-1]
    wait_for(watcher, results_for(final))
    # Now the sleeper drains: versions never go back, and it ends on the newest query's results.
    last_version = 0
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        message = sleeper.receive(1.0)
        if message is None:
            break
        if message.get("method") in ("stateChanged", "resultsUpdated"):
            version = message["params"]["stateVersion"]
            assert version >= last_version
            last_version = version
            sleeper.notifications.append(message)
    assert [m for m in sleeper.notifications if results_for(final)(m)]
    typist.close()


def test_exit_closes_the_websocket_normally(web):
    from websockets.exceptions import ConnectionClosedOK
    page = web.websocket("search")
    page.notify("exit")
    with pytest.raises(ConnectionClosedOK) as closed:
        page.connection.recv(timeout=TIMEOUT)
    assert closed.value.rcvd.code == 1000
    # The daemon goes on serving.
    other = web.websocket("search")
    assert other.result("listIndices")["items"]
    other.close()
