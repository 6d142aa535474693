"""The Typesense harness itself (typesense_nodes.py), against the real 0.24.1
binary. These run in every test run: a missing binary fails them.

1. A node starts on free ports, answers /health, keeps its key out of its argv.
2. delete_all_collections empties a node, aliases included.
3. A start-up that fails says which node and shows its log.
4. A port taken between its probe and the node's bind costs a retry, not the run.
5. Three nodes elect exactly one leader, and a write through a follower is read on the leader.
6. Killing a follower leaves the other two healthy, writable and readable.
7. A restarted node comes back on its ports and catches up with what it missed.
8. stop() leaves no process and no directory behind.
9. QUARRY_EXTRA_SERVE_ARGS reaches `quarry serve`, shell-split.
"""
import json
import os
import socket
import stat
import time
import urllib.request

import pytest

import typesense_nodes
from harness import StdioDaemon
from typesense_nodes import TypesenseCluster, TypesenseUnavailable


def health(address):
    with urllib.request.urlopen(f"http://{address}/health", timeout=2) as response:
        return json.loads(response.read())


def processes_under(directory):
    """PIDs whose command line mentions `directory`."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                if directory.encode() in cmdline.read():
                    found.append(int(entry))
        except OSError:
            continue
    return found


def wait_for(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"{what} within {timeout} s"
        time.sleep(0.1)


def test_a_node_starts_and_answers_health(typesense_node):
    [address] = typesense_node.nodes
    host, port = address.split(":")
    assert host == "127.0.0.1" and int(port) > 0
    assert health(address) == {"ok": True}
    assert typesense_node.request("GET", "/debug")["version"] == "0.24.1"
    assert stat.S_IMODE(os.stat(typesense_node.api_key_file).st_mode) == 0o600
    with open(typesense_node.api_key_file) as key_file:
        key = key_file.read()
    with open(f"/proc/{typesense_node.pid(0)}/cmdline", "rb") as cmdline:
        assert key.encode() not in cmdline.read(), "the key must not be visible in ps"
    assert key not in repr(typesense_node)
    assert typesense_node.serve_args() == ["--typesense-nodes", address, "--typesense-api-key-file",
                                           typesense_node.api_key_file, "--typesense-indices", "all"]


def test_delete_all_collections_empties_the_node(typesense_node):
    schema = {"name": "harness_a", "fields": [{"name": ".*", "type": "auto"}]}
    typesense_node.request("POST", "/collections", schema)
    imported = typesense_node.request("POST", "/collections/harness_a/documents/import?action=upsert",
                                      '{"id":"1","title":"one"}\n{"id":"2","title":"two"}')
    assert imported == [{"success": True}, {"success": True}]
    typesense_node.request("PUT", "/aliases/harness_alias", {"collection_name": "harness_a"})
    assert set(typesense_node.delete_all_collections()) >= {"harness_a", "harness_alias"}
    assert typesense_node.request("GET", "/collections") == []
    assert typesense_node.request("GET", "/aliases") == {"aliases": []}
    with pytest.raises(typesense_nodes.TypesenseHTTPError) as error:
        typesense_node.request("GET", "/collections/harness_a")
    assert error.value.status == 404


def test_a_failed_start_names_the_node_and_shows_its_log(short_tmp):
    with pytest.raises(TypesenseUnavailable) as error:
        TypesenseCluster(size=1, root=short_tmp, binary="/bin/false", timeout=5)
    message = str(error.value)
    assert "node 0 exited with 1" in message and "tail of" in message and "starting node 0" in message
    assert processes_under(short_tmp) == []


def test_a_port_taken_before_the_bind_costs_a_retry(monkeypatch):
    squatter = socket.socket()
    squatter.bind(("127.0.0.1", 0))
    squatter.listen()
    taken = squatter.getsockname()[1]
    real_free_ports = typesense_nodes.free_ports
    calls = []

    def first_call_returns_a_taken_port(count, taken_ports=()):
        calls.append(count)
        ports = real_free_ports(count)
        return [ports[0], taken] if len(calls) == 1 else ports

    monkeypatch.setattr(typesense_nodes, "free_ports", first_call_returns_a_taken_port)
    try:
        with TypesenseCluster(size=1) as node:
            assert len(calls) == 2
            assert health(node.nodes[0]) == {"ok": True}
            assert node.nodes[0] != f"127.0.0.1:{taken}"
    finally:
        squatter.close()


def test_three_nodes_elect_one_leader(typesense_cluster3):
    cluster = typesense_cluster3
    assert len(set(cluster.nodes)) == 3
    states = [cluster.request("GET", "/debug", node=i)["state"] for i in range(3)]
    assert states.count(1) == 1, states
    leader = cluster.leader_index()
    assert states[leader] == 1
    assert sorted(cluster.follower_indices() + [leader]) == [0, 1, 2]
    follower = cluster.follower_indices()[0]
    cluster.request("POST", "/collections", {"name": "elected", "fields": [{"name": ".*", "type": "auto"}]},
                    node=follower)
    assert cluster.request("GET", "/collections/elected", node=leader)["name"] == "elected"
    cluster.delete_all_collections()


def test_killing_a_follower_leaves_the_other_two_healthy(typesense_cluster3):
    cluster = typesense_cluster3
    leader = cluster.leader_index()
    victim = cluster.follower_indices()[0]
    cluster.kill(victim)
    assert not cluster.running(victim)
    survivors = [i for i in range(3) if i != victim]
    for i in survivors:
        assert health(cluster.nodes[i]) == {"ok": True}
    cluster.wait_healthy(timeout=5)
    assert cluster.leader_index() == leader
    assert cluster.follower_indices() == [i for i in survivors if i != leader]
    cluster.request("POST", "/collections", {"name": "survivors", "fields": [{"name": ".*", "type": "auto"}]},
                    node=survivors[-1])
    for i in survivors:
        wait_for(lambda: any(c["name"] == "survivors" for c in cluster.request("GET", "/collections", node=i)),
                 5, f"node {i} sees a collection created after the kill")
    cluster.delete_all_collections()


def test_a_restarted_node_comes_back_and_catches_up(typesense_cluster3):
    cluster = typesense_cluster3
    down = [i for i in range(3) if not cluster.running(i)]
    if not down:  # run alone, without the kill test before it
        down = [cluster.follower_indices()[0]]
        cluster.kill(down[0])
    [victim] = down
    address = cluster.nodes[victim]
    cluster.request("POST", "/collections", {"name": "missed", "fields": [{"name": ".*", "type": "auto"}]})
    cluster.restart(victim)
    assert cluster.running(victim) and cluster.nodes[victim] == address
    assert health(address) == {"ok": True}
    wait_for(lambda: any(c["name"] == "missed" for c in cluster.request("GET", "/collections", node=victim)),
             10, "the restarted node catches up")
    assert sorted(cluster.follower_indices() + [cluster.leader_index()]) == [0, 1, 2]
    cluster.delete_all_collections()


def test_stop_leaves_no_process(typesense_cluster3):
    cluster = typesense_cluster3
    pids = [cluster.pid(i) for i in range(3) if cluster.running(i)]
    assert pids and processes_under(cluster.root)
    cluster.stop()
    assert processes_under(cluster.root) == []
    assert all(not os.path.exists(f"/proc/{pid}") for pid in pids)
    assert not os.path.exists(cluster.root)
    cluster.stop()  # idempotent: the fixture stops it again


def test_extra_serve_args_are_appended_to_quarry_serve(data_dir, monkeypatch):
    monkeypatch.setenv("QUARRY_EXTRA_SERVE_ARGS", "--max-message-size '4096'")
    daemon = StdioDaemon(data_dir, "ndjson")
    try:
        assert daemon.process.args[-2:] == ["--max-message-size", "4096"]
        assert daemon.peer.initialize()["serverInfo"]["name"] == "quarry"
    finally:
        daemon.kill()
