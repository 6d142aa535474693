"""Who may use the HTTP listener (protocol/keys.md), each rule tried against the real daemon with a real
WebSocket client and plain HTTP:

1. keys.json is created at first start, mode 0600, with two different keys, and kept across restarts.
2. A WebSocket with no key, or a wrong key, is refused with 401; by header and by subprotocol alike.
3. A search-only key reads and drives sessions; writes, imports, settings, shutdown and stopServer are refused
   with -32014 and change nothing; the admin key may write.
4. A Host that is not a loopback name (DNS rebinding) is refused with 403, for the page and the WebSocket;
   a name given with --http-allow-host is accepted.
5. A WebSocket whose Origin is not the page's own (cross-site WebSocket hijacking) is refused with 403;
   the page's own origin and one given with --http-allow-origin are accepted.
6. No CORS header unless --http-allow-origin names the requesting origin.
7. A frame over --max-message-size closes the WebSocket with 1009; request bodies, other methods and
   oversized headers are refused.
8. The page is served with a Content-Security-Policy that allows no inline script.
9. Keys never reach the daemon's log or its command line.
10. Binding a non-loopback address prints a warning; config.json's http object starts the listener.
11. Near the open-file limit, new HTTP connections are closed at once and those already open are served: the
    listener keeps the socket listener's descriptor reserve for the engine.
"""
import http.client
import json
import os
import resource
import socket
import stat
import subprocess
import time

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from harness import TIMEOUT
from web_support import WebDaemon, WebSocketPeer

WRITES = [
    ("saveObjects", {"index": "books", "objects": [{"objectID": "9", "title": "intruder"}]}),
    ("partialUpdateObjects", {"index": "books", "objects": [{"objectID": "1", "title": "intruder"}]}),
    ("deleteObjects", {"index": "books", "objectIDs": ["1"]}),
    ("clearObjects", {"index": "books"}),
    ("deleteIndex", {"index": "books"}),
    ("setSettings", {"index": "books", "settings": {"searchableAttributes": ["author"]}}),
    ("importFile", {"index": "books", "path": "/etc/hostname"}),
    ("shutdown", None),
    ("stopServer", None),
]


@pytest.fixture
def web(data_dir, short_tmp):
    daemon = WebDaemon(data_dir, os.path.join(short_tmp, "q.sock"), extra=("--max-message-size", "4096"))
    admin = daemon.connect()
    admin.result("saveObjects", {"index": "books", "objects": [
        {"objectID": "1", "title": "the river and the stone", "author": "ada"},
        {"objectID": "2", "title": "a light in the museum", "author": "bo"}]})
    admin.result("setSettings", {"index": "books", "settings": {"searchableAttributes": ["title"]}})
    admin.close()
    yield daemon
    daemon.kill()


def refused_status(url, **options):
    with pytest.raises(InvalidStatus) as refused:
        with connect(url, open_timeout=TIMEOUT, **options):
            pass
    return refused.value.response.status_code


def http_get(daemon, path="/", headers=None, method="GET", body=None):
    connection = http.client.HTTPConnection("127.0.0.1", daemon.port, timeout=TIMEOUT)
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response, data


def test_keys_file_is_created_private_and_kept(web, data_dir, short_tmp):
    path = os.path.join(data_dir, "keys.json")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    keys = web.keys
    assert set(keys) == {"admin", "search"} and keys["admin"] != keys["search"]
    assert all(len(k) >= 32 for k in keys.values())
    web.terminate()
    again = WebDaemon(data_dir, os.path.join(short_tmp, "q2.sock"))
    try:
        assert again.keys == keys
    finally:
        again.kill()


def test_a_keys_file_others_can_read_is_refused(web, data_dir, short_tmp):
    web.terminate()
    os.chmod(os.path.join(data_dir, "keys.json"), 0o644)
    process = subprocess.run([os.environ.get("QUARRY_BIN") or "quarry", "serve", "--socket",
                              os.path.join(short_tmp, "q3.sock"), "--data-dir", data_dir, "--http", "127.0.0.1:0"],
                             capture_output=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL) \
        if os.environ.get("QUARRY_BIN") else None
    if process is None:
        from harness import quarry_binary
        process = subprocess.run([quarry_binary(), "serve", "--socket", os.path.join(short_tmp, "q3.sock"),
                                  "--data-dir", data_dir, "--http", "127.0.0.1:0"],
                                 capture_output=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    assert process.returncode == 2
    assert b"chmod 600" in process.stderr


def test_no_key_and_wrong_key_are_refused_with_401(web):
    assert refused_status(web.url()) == 401
    assert refused_status(web.url(), additional_headers={"Authorization": "Bearer " + "0" * 64}) == 401
    assert refused_status(web.url(), additional_headers={"Authorization": "Basic " + web.keys["admin"]}) == 401
    assert refused_status(web.url(), subprotocols=["quarry.jsonrpc", "quarry.key." + "f" * 64]) == 401
    assert refused_status(web.url(), subprotocols=["quarry.jsonrpc"]) == 401
    # A key in the query string is not a way in: it would end up in logs and history.
    assert refused_status(web.url("/rpc?key=" + web.keys["admin"])) == 401


def test_the_subprotocol_carries_a_key_and_only_the_jsonrpc_protocol_is_echoed(web):
    connection = connect(web.url(), subprotocols=["quarry.jsonrpc", "quarry.key." + web.keys["search"]],
                         origin=web.origin, open_timeout=TIMEOUT, legacy=True)
    try:
        assert connection.subprotocol == "quarry.jsonrpc"
        assert web.keys["search"] not in str(connection.response.headers)
        peer = WebSocketPeer(connection)
        peer.initialize(["utf-16"])
        assert peer.result("search", {"index": "books", "query": "river"})["nbHits"] == 1
    finally:
        connection.close()


def test_search_only_key_reads_and_drives_sessions(web):
    peer = web.websocket("search")
    assert peer.result("search", {"index": "books", "query": "museum"})["nbHits"] == 1
    assert peer.result("getObjects", {"index": "books", "objectIDs": ["1"]})["results"][0]["author"] == "ada"
    assert "items" in peer.result("listIndices")
    opened = peer.result("openSession", {"session": "s", "searchers": [{"type": "hits", "index": "books"}]})
    assert opened["created"]
    assert peer.result("setQuery", {"session": "s", "query": "light"})["stateVersion"] > opened["stateVersion"]
    peer.close()


@pytest.mark.parametrize("method,params", WRITES, ids=[m for m, _ in WRITES])
def test_search_only_key_cannot_write(web, method, params):
    peer = web.websocket("search")
    reply = peer.request(method, params)
    assert reply["error"]["code"] == -32014, reply
    assert method in reply["error"]["message"] and "search-only" in reply["error"]["message"]
    # Nothing changed, and the connection and daemon still serve.
    assert peer.result("search", {"index": "books", "query": ""})["nbHits"] == 2
    assert peer.result("getSettings", {"index": "books"})["searchableAttributes"] == ["title"]
    peer.close()


def test_admin_key_may_write(web):
    peer = web.websocket("admin")
    peer.result("saveObjects", {"index": "books", "objects": [{"objectID": "3", "title": "echo"}]})
    assert peer.result("search", {"index": "books", "query": "echo"})["nbHits"] == 1
    peer.close()


def test_foreign_host_is_refused_with_403(web):
    response, _ = http_get(web, "/", {"Host": "attacker.example"})
    assert response.status == 403
    response, _ = http_get(web, "/", {"Host": "attacker.example:%d" % web.port})
    assert response.status == 403
    key = {"Authorization": "Bearer " + web.keys["admin"]}
    # A page on a rebound name reaches this port with its own name in Host.
    rebound = socket.create_connection(("127.0.0.1", web.port))
    assert refused_status("ws://rebound.example:%d/rpc" % web.port, sock=rebound, additional_headers=key) == 403
    # A second Host header is refused too.
    assert refused_status(web.url(), additional_headers={"Host": "rebound.example", **key}) == 403
    for host in ("127.0.0.1:%d" % web.port, "localhost:%d" % web.port, "[::1]:%d" % web.port, "localhost"):
        response, _ = http_get(web, "/", {"Host": host})
        assert response.status == 200, host


def test_configured_host_is_accepted(data_dir, short_tmp):
    daemon = WebDaemon(data_dir, os.path.join(short_tmp, "q.sock"), extra=("--http-allow-host", "quarry.lan"))
    try:
        assert http_get(daemon, "/", {"Host": "quarry.lan:%d" % daemon.port})[0].status == 200
        assert http_get(daemon, "/", {"Host": "other.lan:%d" % daemon.port})[0].status == 403
    finally:
        daemon.kill()


def test_foreign_origin_is_refused_with_403(web):
    key = {"Authorization": "Bearer " + web.keys["admin"]}
    assert refused_status(web.url(), additional_headers=key, origin="https://attacker.example") == 403
    assert refused_status(web.url(), additional_headers=key, origin="http://127.0.0.1:1") == 403
    assert refused_status(web.url(), additional_headers=key, origin="null") == 403
    # The page's own origin is accepted.
    web.websocket("admin", origin=web.origin).close()


def test_configured_origin_is_accepted_and_gets_cors_headers(data_dir, short_tmp):
    daemon = WebDaemon(data_dir, os.path.join(short_tmp, "q.sock"),
                       extra=("--http-allow-origin", "https://dash.example", "--http-allow-origin", "http://x.test:8080"))
    try:
        daemon.websocket("search", origin="https://dash.example").close()
        daemon.websocket("search", origin="http://x.test:8080").close()
        assert refused_status(daemon.url(), origin="https://other.example",
                              additional_headers={"Authorization": "Bearer " + daemon.keys["search"]}) == 403
        response, _ = http_get(daemon, "/", {"Origin": "https://dash.example"})
        assert response.getheader("Access-Control-Allow-Origin") == "https://dash.example"
        response, _ = http_get(daemon, "/", {"Origin": "https://other.example"})
        assert response.getheader("Access-Control-Allow-Origin") is None
    finally:
        daemon.kill()


def test_no_cors_headers_by_default(web):
    for origin in (web.origin, "https://attacker.example"):
        response, _ = http_get(web, "/", {"Origin": origin})
        assert not [h for h in response.getheaders() if h[0].lower().startswith("access-control-")]
    response, _ = http_get(web, "/rpc", {"Origin": "https://attacker.example",
                                         "Access-Control-Request-Method": "GET"}, method="OPTIONS")
    assert response.status == 405
    assert response.getheader("Access-Control-Allow-Origin") is None


def test_oversized_frame_closes_with_1009(web):
    peer = web.websocket("admin")
    peer.send({"jsonrpc": "2.0", "id": 1, "method": "search", "params": {"index": "books", "query": "x" * 8000}})
    with pytest.raises(ConnectionClosed) as closed:
        peer.connection.recv(timeout=TIMEOUT)
    assert closed.value.rcvd.code == 1009
    # The daemon still serves others.
    other = web.websocket("admin")
    assert other.result("search", {"index": "books", "query": "river"})["nbHits"] == 1
    other.close()


def test_oversized_message_in_fragments_closes_with_1009(web):
    peer = web.websocket("admin")
    peer.connection.send(iter(["[" + " " * 3000, " " * 3000 + "]"]))
    with pytest.raises(ConnectionClosed) as closed:
        peer.connection.recv(timeout=TIMEOUT)
    assert closed.value.rcvd.code == 1009


def test_bodies_methods_and_huge_headers_are_refused(web):
    response, _ = http_get(web, "/", method="POST", body=b"x" * 100)
    assert response.status == 413
    response, _ = http_get(web, "/", method="DELETE")
    assert response.status == 405
    response, _ = http_get(web, "/nothing-here")
    assert response.status == 404
    # Headers beyond the limit: the request is refused (NIO's parser answers 431 or drops the connection).
    try:
        response, _ = http_get(web, "/", {"X-Filler": "y" * 40000})
        assert response.status == 431
    except (ConnectionError, http.client.HTTPException):
        pass
    assert http_get(web, "/")[0].status == 200


def test_more_header_fields_than_the_limit_are_refused(web):
    """100 header fields at most (protocol/websocket.md), however small each is."""
    assert http_get(web, "/", {f"X-Field-{i}": "1" for i in range(90)})[0].status == 200
    try:
        response, _ = http_get(web, "/", {f"X-Field-{i}": "1" for i in range(150)})
        assert response.status == 431
    except (ConnectionError, http.client.HTTPException):
        pass  # NIO's parser may drop the connection instead of answering
    assert http_get(web, "/")[0].status == 200


def test_an_idle_http_connection_is_closed_but_an_idle_websocket_is_not(data_dir, short_tmp):
    daemon = WebDaemon(data_dir, os.path.join(short_tmp, "q.sock"), extra=("--http-idle-timeout", "1"))
    try:
        idle = socket.create_connection(("127.0.0.1", daemon.port), timeout=TIMEOUT)
        peer = daemon.websocket("search")
        started = time.monotonic()
        assert idle.recv(1) == b"", "the daemon closes a connection that sends no request"
        assert time.monotonic() - started < TIMEOUT
        time.sleep(2.5)  # well past the idle timeout, with nothing sent on the WebSocket either
        assert peer.result("listSessions", {}) == {"sessions": []}
        peer.close()
        idle.close()
    finally:
        daemon.kill()


def test_page_has_a_strict_content_security_policy(web):
    response, body = http_get(web, "/")
    assert response.status == 200 and b"<script" in body
    policy = response.getheader("Content-Security-Policy")
    assert "script-src 'self'" in policy and "default-src 'none'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert b"<script>" not in body and b" onclick=" not in body
    assert response.getheader("X-Content-Type-Options") == "nosniff"
    for asset in ("/app.js", "/style.css"):
        assert http_get(web, asset)[0].status == 200


def test_keys_never_reach_the_log_or_command_line(web):
    keys = web.keys
    # Exercise every path that might log: refusals, a session, a write refused, an oversized frame.
    refused_status(web.url(), additional_headers={"Authorization": "Bearer " + keys["search"] + "x"})
    refused_status(web.url(), additional_headers={"Authorization": "Bearer " + keys["admin"]}, origin="https://a.example")
    peer = web.websocket("search")
    peer.request("setSettings", {"index": "books", "settings": {}})
    peer.close()
    with open(f"/proc/{web.process.pid}/cmdline", "rb") as f:
        cmdline = f.read().decode()
    web.terminate()
    log = web.log_text()
    assert "HTTP on http://127.0.0.1:" in log
    for key in keys.values():
        assert key not in log and key not in cmdline


def test_non_loopback_bind_warns(data_dir, short_tmp):
    daemon = WebDaemon(data_dir, os.path.join(short_tmp, "q.sock"), http="0.0.0.0:0")
    try:
        assert "warning: HTTP listens on 0.0.0.0" in daemon.log_text()
        # Even then, a Host that is not loopback or configured is refused.
        assert http_get(daemon, "/", {"Host": "203.0.113.9:%d" % daemon.port})[0].status == 403
    finally:
        daemon.kill()


def test_config_file_starts_the_listener(data_dir, short_tmp, monkeypatch):
    config = os.path.join(short_tmp, "config")
    os.makedirs(os.path.join(config, "quarry"))
    with open(os.path.join(config, "quarry", "config.json"), "w") as f:
        json.dump({"http": {"listen": "127.0.0.1:0", "allowOrigins": ["https://cfg.example"]}}, f)
    monkeypatch.setenv("XDG_CONFIG_HOME", config)
    daemon = WebDaemon(data_dir, os.path.join(short_tmp, "q.sock"), http=None)
    try:
        daemon.websocket("search", origin="https://cfg.example").close()
    finally:
        daemon.kill()


def test_the_descriptor_reserve_holds_for_http_clients(data_dir, short_tmp):
    limit = 64

    def low_limit():
        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))

    daemon = WebDaemon(data_dir, os.path.join(short_tmp, "q.sock"), preexec_fn=low_limit)
    held = []
    try:
        first = daemon.websocket("admin")
        first.result("saveObjects", {"index": "books", "objects": [{"objectID": "1", "title": "river"}]})
        answered = refused = 0
        for _ in range(2 * limit):
            sock = socket.create_connection(("127.0.0.1", daemon.port), timeout=5)
            held.append(sock)
            try:
                sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                data = sock.recv(1 << 16)
            except (socket.timeout, ConnectionResetError, BrokenPipeError):
                data = b""
            if data.startswith(b"HTTP/1.1 200"):
                answered += 1
            else:
                refused += 1
        assert answered > 0 and refused > 0, (answered, refused)
        # The connection already open is served, and the engine still has files to work with.
        assert first.result("search", {"index": "books", "query": "river"})["nbHits"] == 1
        first.result("saveObjects", {"index": "books", "objects": [{"objectID": "2", "title": "river two"}]})
        assert "refusing an HTTP client: too many open files" in daemon.log_text()
        for sock in held:
            sock.close()
        held.clear()
        deadline = time.monotonic() + 5
        while True:
            try:
                status = http_get(daemon, "/")[0].status
            except (ConnectionError, http.client.HTTPException):
                status = None
            if status == 200:
                break
            assert time.monotonic() < deadline, "new HTTP connections are served again once others close"
            time.sleep(0.05)
    finally:
        for sock in held:
            sock.close()
        daemon.kill()
