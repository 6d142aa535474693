"""The real `quarry` binary on a real 3-node Typesense 0.24.1 cluster (issue 11's
cluster tier). One cluster and one daemon pointed at all three nodes serve the
whole module: a cluster takes about 12 s to elect its first leader.

1. A search sent right after `saveObjects`' reply sees the write, 20 times in a
   row, although followers apply writes about 500 ms after the leader.
2. With a follower killed (-9), no read or write through the daemon fails, also
   once reads are no longer pinned to the leader.
3. A node killed (-9) and restarted catches up: a daemon pointed at it alone
   finds what was written while it was down, and what it held before, within 10 s.
4. With the leader killed (-9), no read fails and reads keep coming while the
   cluster elects; writes work again within 20 s (printed); a write during the
   election is either answered late or refused with -32013 naming the nodes'
   states, and every write that got a reply is found afterwards.

5. Every node killed (-9) and restarted: every acknowledged write is still there.

The tests run in this order; the leader test leaves one node down, the last test restarts it.
"""
import os
import shutil
import tempfile
import threading
import time

import pytest

from harness import SocketDaemon, StdioDaemon
from typesense_nodes import without_tier_args

BACKEND_UNAVAILABLE = -32013
# The words with which the daemon describes a node in a -32013 message (NodeState).
NODE_STATES = ("leader", "follower", "not ready", "unreachable", "unknown")
# A write during an election may wait this long (the daemon retries for 25 s) plus a margin.
WRITE_TIMEOUT = 40.0
RECOVERY_BOUND = 20.0
CATCH_UP_BOUND = 10.0


@pytest.fixture(scope="module")
def cluster(typesense_cluster3):
    """The module's three nodes (no binary fails the module), which these tests kill and restart."""
    return typesense_cluster3


@pytest.fixture(scope="module")
def workdir():
    path = tempfile.mkdtemp(prefix="qtc", dir="/tmp")  # short: a socket path lives here
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def daemon(cluster, workdir):
    """`quarry serve --socket` with every index on the cluster, all three nodes named."""
    data = os.path.join(workdir, "data")
    os.mkdir(data)
    with without_tier_args():
        server = SocketDaemon(data, os.path.join(workdir, "q.sock"), extra=cluster.serve_args())
    yield server
    server.kill()


@pytest.fixture
def client(daemon):
    peer = daemon.connect("ndjson")
    yield peer
    peer.close()


def result(reply):
    assert "result" in reply, reply
    return reply["result"]


def save(peer, index, records, timeout=WRITE_TIMEOUT):
    return result(peer.request("saveObjects", {"index": index, "objects": records}, timeout))


def hits(peer, index, query):
    return result(peer.request("search", {"index": index, "query": query, "hitsPerPage": 1000}))


def missing(peer, index, object_ids):
    """The ids that getObjects does not find."""
    found = result(peer.request("getObjects", {"index": index, "objectIDs": object_ids}))["results"]
    return [object_id for object_id, record in zip(object_ids, found) if record is None]


def collection_of(cluster, index):
    """The physical collection behind an index's alias, read from the leader."""
    return cluster.request("GET", f"/aliases/quarry_{index}")["collection_name"]


def test_a_search_right_after_a_write_sees_it(cluster, client):
    save(client, "ryw", [{"objectID": "seed", "title": "seed"}])
    collection = collection_of(cluster, "ryw")
    follower = cluster.follower_indices()[0]
    follower_had_it = 0
    for n in range(20):
        word = f"ryw{n:02d}marker"
        assert save(client, "ryw", [{"objectID": f"r{n}", "title": word}])["objectIDs"] == [f"r{n}"]
        found = hits(client, "ryw", word)
        # Typo tolerance may add earlier markers (ryw00marker is one typo away); the exact match ranks first.
        assert found["hits"] and found["hits"][0]["objectID"] == f"r{n}", f"write {n} not seen by the next search"
        # Only to show the check is not vacuous: a follower usually does not have the write yet.
        direct = cluster.request("GET", f"/collections/{collection}/documents/search?q={word}&query_by=s_title"
                                 "&num_typos=0&prefix=false",
                                 node=follower)
        follower_had_it += direct["found"]
    print(f"\na follower had {follower_had_it} of 20 writes when the daemon's search already saw them")


def test_a_killed_follower_fails_no_request(cluster, client):
    save(client, "fol", [{"objectID": "seed", "title": "seed record"}])
    victim = cluster.follower_indices()[0]
    cluster.kill(victim)
    try:
        written = []
        for n in range(10):
            save(client, "fol", [{"objectID": f"f{n}", "title": f"follower down {n}"}])
            written.append(f"f{n}")
            assert hits(client, "fol", "down")["nbHits"] == len(written)
        # For 2 s after a write, reads go to the leader; then they go round the nodes, the dead one included.
        time.sleep(2.5)
        for _ in range(12):
            assert hits(client, "fol", "down")["nbHits"] == len(written)
            assert missing(client, "fol", written) == []
        save(client, "fol", [{"objectID": "after", "title": "after the reads"}])
        assert missing(client, "fol", written + ["after"]) == []
    finally:
        cluster.restart(victim)


def test_a_restarted_node_catches_up(cluster, client, workdir):
    kept = [f"k{n}" for n in range(10)]
    save(client, "late", [{"objectID": object_id, "title": f"written before {object_id}"} for object_id in kept])
    victim = cluster.follower_indices()[-1]
    time.sleep(1)  # the victim has applied them: what it held before it died must be there after
    cluster.kill(victim)
    written = [f"l{n}" for n in range(10)]
    for object_id in written:
        save(client, "late", [{"objectID": object_id, "title": f"written while down {object_id}"}])
    started = time.monotonic()
    cluster.restart(victim)
    healthy = time.monotonic()
    only_victim = ["--typesense-nodes", cluster.nodes[victim]] + cluster.serve_args()[2:]
    data = os.path.join(workdir, "catch-up")
    os.mkdir(data)
    with without_tier_args():
        alone = StdioDaemon(data, "ndjson", extra=only_victim)
    try:
        alone.peer.initialize()
        deadline = healthy + CATCH_UP_BOUND
        everything = kept + written
        while True:
            reply = alone.peer.request("getObjects", {"index": "late", "objectIDs": everything})
            records = reply["result"]["results"] if "result" in reply else [None] * len(everything)
            lacking = [object_id for object_id, record in zip(everything, records) if record is None]
            if not lacking:
                break
            assert time.monotonic() < deadline, (
                f"{CATCH_UP_BOUND} s after node {victim} was healthy again it lacks "
                f"{[i for i in lacking if i in kept]} of what it held before it died and "
                f"{[i for i in lacking if i in written]} of what was written meanwhile ({reply.get('error')})")
            time.sleep(0.2)
        print(f"\nnode {victim}: healthy {healthy - started:.1f} s after its restart, "
              f"caught up {time.monotonic() - started:.1f} s after it")
        assert hits(alone.peer, "late", "down")["nbHits"] == len(written)
        assert hits(alone.peer, "late", "")["nbHits"] == len(everything)
    finally:
        alone.kill()


class Reader(threading.Thread):
    """Searches and reads an index on its own connection until told to stop,
    noting every failure and the longest wait for an answer."""

    def __init__(self, peer, index, expected):
        super().__init__(daemon=True)
        self.peer, self.index, self.expected = peer, index, expected
        self.stop = threading.Event()
        self.answered = 0
        self.failures = []
        self.longest = 0.0

    def run(self):
        while not self.stop.is_set():
            for method, params in (("search", {"index": self.index, "query": "steady", "hitsPerPage": 1}),
                                   ("getObjects", {"index": self.index, "objectIDs": ["s0", "s49"]})):
                began = time.monotonic()
                try:
                    reply = self.peer.request(method, params, timeout=30)
                except AssertionError as error:  # no reply in time
                    self.failures.append(f"{method}: {error}")
                    return
                self.longest = max(self.longest, time.monotonic() - began)
                if "result" not in reply:
                    self.failures.append(f"{method}: {reply}")
                elif method == "search" and reply["result"]["nbHits"] != self.expected:
                    self.failures.append(f"search found {reply['result']['nbHits']} of {self.expected}")
                elif method == "getObjects" and None in reply["result"]["results"]:
                    self.failures.append(f"getObjects: {reply['result']}")
                else:
                    self.answered += 1


def test_a_killed_leader_fails_no_read_and_loses_no_acknowledged_write(cluster, daemon, client):
    steady = [{"objectID": f"s{n}", "title": f"steady record {n}"} for n in range(50)]
    save(client, "steady", steady)
    save(client, "failover", [{"objectID": "seed", "title": "seed record"}])
    reader_peer = daemon.connect("ndjson")
    reader = Reader(reader_peer, "steady", len(steady))
    reader.start()
    acknowledged, refused = [], []
    first_after_kill = None
    try:
        time.sleep(0.5)
        for n in range(5):
            save(client, "failover", [{"objectID": f"before{n}", "title": f"failover before {n}"}])
            acknowledged.append(f"before{n}")
        leader = cluster.leader_index()
        reads_before = reader.answered
        killed = time.monotonic()
        cluster.kill(leader)
        n = 0
        # Write until the cluster has taken writes again for a few seconds.
        while first_after_kill is None or time.monotonic() - killed < first_after_kill + 3:
            assert time.monotonic() - killed < WRITE_TIMEOUT + 5, "writes did not come back"
            object_id = f"during{n}"
            n += 1
            sent = time.monotonic()
            reply = client.request("saveObjects", {"index": "failover", "objects": [
                {"objectID": object_id, "title": f"failover during {object_id}"}]}, timeout=WRITE_TIMEOUT)
            if "result" in reply:
                assert reply["result"]["objectIDs"] == [object_id]
                acknowledged.append(object_id)
                if first_after_kill is None:
                    first_after_kill = time.monotonic() - killed
            else:
                error = reply["error"]
                assert error["code"] == BACKEND_UNAVAILABLE, reply
                assert any(state in error["message"] for state in NODE_STATES), (
                    f"a -32013 that does not name the nodes' states: {reply}")
                refused.append((object_id, round(sent - killed, 1), error["message"]))
                time.sleep(0.2)
        reads_during = reader.answered - reads_before
    finally:
        reader.stop.set()
        reader.join(40)
        reader_peer.close()
    print(f"\nleader (node {leader}) killed: writes answered again after {first_after_kill:.1f} s; "
          f"{len(refused)} writes refused meanwhile; {reads_during} reads answered meanwhile, "
          f"the slowest in {reader.longest:.2f} s")
    for object_id, at, message in refused:
        print(f"  refused {object_id} sent at +{at} s: {message}")
    assert reader.failures == [], reader.failures
    assert reads_during > 0 and reader.longest < 5, "reads stalled during the election"
    assert first_after_kill < RECOVERY_BOUND, f"writes came back only after {first_after_kill:.1f} s"
    assert missing(client, "failover", acknowledged) == [], "an acknowledged write was lost"
    assert cluster.leader_index() not in (None, leader)


def test_a_whole_cluster_restart_loses_no_acknowledged_write(cluster, client):
    """Every node killed (-9) and started again: what the daemon acknowledged is still there. (The test
    that catches writes addressed to an alias, which Typesense 0.24.1 drops when a node rebuilds from its
    Raft log, is the restarted follower's above: it failed 3 runs of 3 with them; this one passed.)"""
    for node in range(cluster.size):
        if not cluster.running(node):
            cluster.restart(node, wait=False)
    cluster.wait_healthy()
    ids = [f"durable{i}" for i in range(30)]
    save(client, "durable", [{"objectID": object_id, "title": f"kept {object_id}"} for object_id in ids])
    for node in range(cluster.size):
        cluster.kill(node)
    for node in range(cluster.size):
        cluster.restart(node, wait=False)
    cluster.wait_healthy()
    deadline = time.monotonic() + CATCH_UP_BOUND
    while True:
        reply = client.request("getObjects", {"index": "durable", "objectIDs": ids})
        lost = ids if "result" not in reply else [i for i, r in zip(ids, reply["result"]["results"]) if r is None]
        if not lost or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert lost == [], f"lost after the restart: {lost} ({reply})"
    assert hits(client, "durable", "kept")["nbHits"] == 30
