"""Records stored compressed (a zstd dictionary trained per index, see
ARCHITECTURE.md) come back exactly as written: through getObjects, browse,
`quarry export` and search hits, before and after a restart, once the record
compaction has rewritten the records written before the dictionary."""
import glob
import json
import os
import sqlite3
import time

from harness import SocketDaemon
from test_export import browse_all, catalogue, quarry, save

SPECIAL = [
    {"objectID": "unicode", "name": "Crème brûlée 東京 🍮 e\u0301 \u0000 \"quoted\"", "z": 1, "a": [{"ü": "\n"}]},
    {"objectID": "order", "zeta": 1, "alpha": {"b": 2, "a": 1}, "mid": [3, 2, 1]},
    {"objectID": "bare"},
    {"objectID": "large", "text": " ".join(f"word{i} {i * 7919 % 10007}" for i in range(120_000))},
    {"objectID": "noise", "blob": os.urandom(30_000).hex()},
]


def same(got, wanted):
    """Equal, and with the keys in the same order at every level."""
    if isinstance(wanted, dict):
        return isinstance(got, dict) and list(got) == list(wanted) and all(same(got[k], wanted[k]) for k in wanted)
    if isinstance(wanted, list):
        return isinstance(got, list) and len(got) == len(wanted) and all(map(same, got, wanted))
    return got == wanted


def store_kinds(data_dir):
    """Text and blob rows of the index's store; None on the Typesense tier (no store)."""
    stores = glob.glob(os.path.join(data_dir, "indices", "*", "records.sqlite"))
    if not stores:
        return None
    with sqlite3.connect(f"file:{stores[0]}?mode=ro", uri=True) as connection:
        return dict(connection.execute("SELECT typeof(body), count(*) FROM records GROUP BY 1").fetchall())


def check_everything(client, socket_path, records, short_tmp):
    by_id = {r["objectID"]: r for r in records}
    ids = list(by_id)
    for start in range(0, len(ids), 1000):
        got = client.result("getObjects", {"index": "shop", "objectIDs": ids[start:start + 1000]})["results"]
        for wanted, record in zip(ids[start:start + 1000], got):
            assert same(record, by_id[wanted]), f"getObjects changed {wanted}: {json.dumps(record)[:300]}"
    hits, _ = browse_all(client, {"index": "shop", "hitsPerPage": 1000})
    assert sorted(h["objectID"] for h in hits) == sorted(ids)
    for hit in hits:
        assert same(hit, by_id[hit["objectID"]]), f"browse changed {hit['objectID']}"
    dump = os.path.join(short_tmp, "dump.ndjson")
    quarry("export", "shop", "-o", dump, socket_path=socket_path)
    with open(dump, encoding="utf-8") as f:
        exported = [json.loads(line) for line in f]
    assert len(exported) == len(ids)
    for record in exported:
        assert same(record, by_id[record["objectID"]]), f"export changed {record['objectID']}"
    for query in ("crème brûlée", "word119999", "amber birch"):
        reply = client.result("search", {"index": "shop", "query": query, "hitsPerPage": 20, "attributesToHighlight": []},
                              timeout=120)
        assert reply["nbHits"] > 0, query
        for hit in reply["hits"]:
            stored = {k: v for k, v in hit.items() if not k.startswith("_")}
            assert same(stored, by_id[hit["objectID"]]), f"a hit changed {hit['objectID']}"


def test_records_come_back_exactly_after_compression_and_a_restart(short_tmp, data_dir):
    records = catalogue(2_600) + SPECIAL
    socket_path = os.path.join(short_tmp, "rec.sock")
    daemon = SocketDaemon(data_dir, socket_path)
    try:
        client = daemon.connect()
        save(client, "shop", records)
        # The first 2,000 records trained the dictionary; the record compaction rewrites them after the save.
        deadline = time.time() + 60
        while (kinds := store_kinds(data_dir)) is not None and kinds.get("text", 0) > 10 and time.time() < deadline:
            time.sleep(0.2)
        if kinds is not None:
            assert kinds.get("blob", 0) > 2_500, f"records are stored compressed: {kinds}"
            assert kinds.get("text", 0) <= 10, f"only records zstd cannot shrink stay text: {kinds}"
        check_everything(client, socket_path, records, short_tmp)
        assert daemon.terminate() == 0
        daemon = SocketDaemon(data_dir, socket_path)
        check_everything(daemon.connect(), socket_path, records, short_tmp)
    finally:
        daemon.kill()
