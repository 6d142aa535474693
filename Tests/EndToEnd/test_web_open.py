"""`quarry open` (protocol/websocket.md):

1. With a daemon serving HTTP, it prints the page's address with the search-only key and the session in
   the fragment; the page answers at that address and the key in it opens a search-only WebSocket.
2. With no daemon, it starts one in the background with HTTP on a free loopback port.
3. A daemon running without HTTP (one `quarry import` started) starts its listener when `quarry open` asks.
4. With a display, the browser gets a private file that redirects to the page: the key is on no command line.
"""
import json
import os
import socket
import stat
import subprocess
import urllib.parse
import urllib.request

from harness import TIMEOUT, SocketDaemon, quarry_binary
from web_support import WebDaemon, WebSocketPeer
from websockets.sync.client import connect


def run_open(*arguments, env=None):
    return subprocess.run([quarry_binary(), "open", *arguments], capture_output=True, text=True, timeout=TIMEOUT,
                          stdin=subprocess.DEVNULL, env=env)


def parse(url):
    parts = urllib.parse.urlsplit(url)
    return parts, dict(urllib.parse.parse_qsl(parts.fragment))


def test_prints_the_page_address_with_the_search_key(data_dir, short_tmp):
    daemon = WebDaemon(data_dir, os.path.join(short_tmp, "q.sock"))
    try:
        done = run_open("--socket", daemon.path, "--session", "my notes", "--print", "books")
        assert done.returncode == 0, done.stderr
        parts, fragment = parse(done.stdout.strip())
        assert parts.netloc == f"127.0.0.1:{daemon.port}" and parts.path == "/" and not parts.query
        assert fragment == {"key": daemon.keys["search"], "session": "my notes", "index": "books"}
        assert daemon.keys["admin"] not in done.stdout
        with urllib.request.urlopen(f"http://{parts.netloc}/", timeout=TIMEOUT) as page:
            assert page.status == 200
        connection = connect(f"ws://{parts.netloc}/rpc", subprotocols=["quarry.jsonrpc", "quarry.key." + fragment["key"]],
                             origin=f"http://{parts.netloc}", open_timeout=TIMEOUT, legacy=True)
        peer = WebSocketPeer(connection)
        peer.initialize(["utf-16"])
        assert peer.request("setSettings", {"index": "x", "settings": {}})["error"]["code"] == -32014
        peer.close()
    finally:
        daemon.kill()


def test_starts_a_daemon_with_http_when_none_runs(data_dir, short_tmp):
    sock = os.path.join(short_tmp, "bg.sock")
    env = {**os.environ, "XDG_CONFIG_HOME": os.path.join(short_tmp, "no-config")}
    done = run_open("--socket", sock, "--data-dir", data_dir, "--print", env=env)
    assert done.returncode == 0, done.stderr
    parts, fragment = parse(done.stdout.strip())
    try:
        with urllib.request.urlopen(f"http://{parts.netloc}/", timeout=TIMEOUT) as page:
            assert page.status == 200
        with open(os.path.join(data_dir, "keys.json")) as f:
            keys = json.load(f)
        assert fragment["key"] == keys["search"] and fragment["session"] == "web"
        assert stat.S_IMODE(os.stat(os.path.join(data_dir, "keys.json")).st_mode) == 0o600
        # The daemon's command line names no key.
        pid = None
        for entry in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    cmdline = f.read().decode(errors="replace")
            except OSError:
                continue
            if sock in cmdline and "serve" in cmdline:
                pid = int(entry)
                assert keys["search"] not in cmdline and keys["admin"] not in cmdline
        assert pid is not None
    finally:
        probe = socket.socket(socket.AF_UNIX)
        probe.connect(sock)
        probe.sendall(b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}\n'
                      b'{"jsonrpc":"2.0","id":2,"method":"stopServer"}\n')
        probe.settimeout(TIMEOUT)
        while b'"id":2' not in probe.recv(65536):
            pass
        probe.close()


def test_a_daemon_without_http_starts_its_listener_when_asked(data_dir, short_tmp):
    """`quarry import` starts a background daemon without HTTP: `quarry open` then starts the listener on it."""
    daemon = SocketDaemon(data_dir, os.path.join(short_tmp, "q.sock"))
    try:
        client = daemon.connect()
        client.result("saveObjects", {"index": "books", "objects": [{"objectID": "1", "title": "the river"}]})
        done = run_open("--socket", daemon.path, "--print", "books")
        assert done.returncode == 0, done.stderr
        parts, fragment = parse(done.stdout.strip())
        with open(os.path.join(data_dir, "keys.json")) as f:
            assert fragment["key"] == json.load(f)["search"]
        with urllib.request.urlopen(f"http://{parts.netloc}/", timeout=TIMEOUT) as page:
            assert page.status == 200
        again = client.result("listenHTTP", {})
        assert again == {"address": parts.netloc, "started": False}, "asked again: the same listener"
        assert run_open("--socket", daemon.path, "--print").stdout.split("#")[0] == done.stdout.split("#")[0]
        # The listener feeds the daemon's own sessions: one opened on the socket is seen over the WebSocket.
        client.result("openSession", {"session": "both", "searchers": [{"type": "hits", "index": "books"}]})
        client.result("setQuery", {"session": "both", "query": "river"})
        connection = connect(f"ws://{parts.netloc}/rpc", subprotocols=["quarry.jsonrpc", "quarry.key." + fragment["key"]],
                             origin=f"http://{parts.netloc}", open_timeout=TIMEOUT, legacy=True)
        peer = WebSocketPeer(connection)
        peer.initialize(["utf-16"])
        assert peer.result("getState", {"session": "both"})["state"]["query"] == "river"
        assert peer.request("listenHTTP", {})["error"]["code"] == -32014, "not for the search-only key"
        peer.close()
    finally:
        daemon.kill()


def test_the_browser_gets_a_private_redirect_not_the_key(data_dir, short_tmp):
    daemon = WebDaemon(data_dir, os.path.join(short_tmp, "q.sock"))
    bin_dir = os.path.join(short_tmp, "bin")
    os.mkdir(bin_dir)
    record = os.path.join(short_tmp, "opened")
    # Stands in for the desktop's opener: records what it was given, as a browser would receive it.
    opener = os.path.join(bin_dir, "xdg-open")
    with open(opener, "w") as f:
        f.write(f'#!/bin/sh\nprintf "%s\\n" "$@" > {record}\ncp "${{1#file://}}" {record}.html\n')
    os.chmod(opener, 0o755)
    runtime = os.path.join(short_tmp, "run")
    os.mkdir(runtime, 0o700)
    env = {**os.environ, "DISPLAY": ":99", "PATH": bin_dir + ":" + os.environ["PATH"], "XDG_RUNTIME_DIR": runtime}
    try:
        done = run_open("--socket", daemon.path, "--session", "s", env=env)
        assert done.returncode == 0, done.stderr
        assert done.stdout == ""
        with open(record) as f:
            argument = f.read().strip()
        assert argument.startswith("file://" + runtime) and daemon.keys["search"] not in argument
        redirect = argument[len("file://"):]
        assert stat.S_IMODE(os.stat(redirect).st_mode) == 0o600
        with open(record + ".html") as f:
            html = f.read()
        assert f"url=http://127.0.0.1:{daemon.port}/#key={daemon.keys['search']}&session=s" in html
    finally:
        daemon.kill()
