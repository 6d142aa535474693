"""Getting records back out: getObjects, browse and `quarry export` against a real daemon."""
import json
import os
import subprocess

from harness import quarry_binary

WORDS = ["amber", "birch", "cedar", "delta", "ember", "fjord", "garnet", "harbor", "ivory", "juniper"]


def catalogue(count):
    """Varied records: nested objects, arrays, unicode, floats, nulls, booleans."""
    records = []
    for i in range(count):
        records.append({
            "objectID": f"r{i:05d}",
            "name": f"{WORDS[i % 10]} {WORDS[(i * 7) % 10]} café №{i}",
            "price": round(i * 1.25, 2),
            "stock": i % 17,
            "tags": [WORDS[i % 3], "🌲" if i % 5 == 0 else "x"],
            "meta": {"brand": f"brand{i % 40}", "ratio": 0.1 * (i % 9), "note": None, "active": i % 2 == 0},
            "description": " ".join(WORDS[(i + k) % 10] for k in range(30)),
        })
    return records


def quarry(*args, socket_path, check=True):
    done = subprocess.run([quarry_binary(), *args, "--socket", socket_path], capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def save(client, index, records):
    for start in range(0, len(records), 1000):
        client.result("saveObjects", {"index": index, "objects": records[start:start + 1000]})


def browse_all(client, params):
    pages, hits = 0, []
    page = client.result("browse", params)
    while True:
        pages += 1
        hits += page["hits"]
        if "cursor" not in page:
            return hits, pages
        page = client.result("browse", {"index": params["index"], "cursor": page["cursor"]})


def test_get_objects_in_order_with_missing_ids_and_attributes(daemon):
    client = daemon.connect()
    save(client, "items", catalogue(20))
    results = client.result("getObjects", {"index": "items", "objectIDs": ["r00003", "nope", "r00001"]})["results"]
    assert [r and r["objectID"] for r in results] == ["r00003", None, "r00001"]
    assert results[0] == catalogue(20)[3], "the record as saved"
    slim = client.result("getObjects", {"index": "items", "objectIDs": ["r00002"], "attributesToRetrieve": ["price", "meta"]})
    assert slim["results"] == [{"objectID": "r00002", "price": 2.5, "meta": catalogue(20)[2]["meta"]}]

    for params, name in [({"index": "items", "objectIDs": "r00001"}, "objectIDs"),
                         ({"index": "items", "objectIDs": ["r1", 7]}, "objectIDs[1]"),
                         ({"index": "items", "objectIDs": ["r1"], "attributesToRetrieve": "price"}, "attributesToRetrieve"),
                         ({"objectIDs": ["r1"]}, "index")]:
        reply = client.request("getObjects", params)
        assert reply["error"]["code"] == -32602, reply
        assert f"'{name}'" in reply["error"]["message"], reply
    reply = client.request("getObjects", {"index": "missing", "objectIDs": ["a"]})
    assert reply["error"]["code"] == -32602 and "does not exist" in reply["error"]["message"]


def test_browse_reads_past_the_pagination_limit(daemon):
    client = daemon.connect()
    records = catalogue(2500)
    save(client, "big", records)
    searched = client.result("search", {"index": "big", "query": "", "hitsPerPage": 1000, "page": 1})
    assert searched["nbPages"] == 1 and searched["hits"] == [], "search stops at paginationLimitedTo"

    hits, pages = browse_all(client, {"index": "big"})
    assert pages == 3
    assert hits == records, "every record, once, in the order saved (the order ties rank in), as saved"

    first = client.result("browse", {"index": "big", "hitsPerPage": 7, "attributesToRetrieve": ["stock"]})
    assert first["nbHits"] == 2500 and len(first["hits"]) == 7
    assert first["hits"][0] == {"objectID": "r00000", "stock": 0}


def test_browse_with_query_and_filters_matches_search(daemon):
    client = daemon.connect()
    save(client, "shop", catalogue(1500))
    client.result("setSettings", {"index": "shop", "settings": {
        "searchableAttributes": ["name"], "attributesForFaceting": ["meta.brand", "tags"]}})
    params = {"index": "shop", "query": "cedr", "filters": "stock < 12 AND meta.brand:brand2", "hitsPerPage": 4}
    expected = client.result("search", {**{k: v for k, v in params.items()}, "hitsPerPage": 1000,
                                        "attributesToRetrieve": ["objectID"]})
    assert expected["nbHits"] > 4, "the fixture must need several pages"
    hits, pages = browse_all(client, params)
    assert pages == (expected["nbHits"] + 3) // 4
    assert sorted(h["objectID"] for h in hits) == sorted(h["objectID"] for h in expected["hits"])
    first = client.result("browse", params)
    assert first["nbHits"] == expected["nbHits"]

    facet = client.result("browse", {"index": "shop", "facetFilters": [["tags:amber", "tags:birch"]], "hitsPerPage": 1000})
    assert facet["nbHits"] == 1000 and "cursor" not in facet


def test_browse_interleaved_with_writes_follows_the_documented_rule(daemon):
    client = daemon.connect()
    save(client, "live", catalogue(300))
    page = client.result("browse", {"index": "live", "hitsPerPage": 100})
    seen = [h["objectID"] for h in page["hits"]]
    assert seen[-1] == "r00099"
    # During the browse: delete one already returned and one not yet reached, replace one not yet
    # reached, add one before the cursor and one after it.
    client.result("deleteObjects", {"index": "live", "objectIDs": ["r00010", "r00150"]})
    client.result("saveObjects", {"index": "live", "objects": [
        {"objectID": "r00200", "name": "replaced"}, {"objectID": "r00050x", "name": "behind"},
        {"objectID": "r00250x", "name": "ahead"}]})
    rest = []
    while "cursor" in page:
        page = client.result("browse", {"index": "live", "cursor": page["cursor"], "hitsPerPage": 100})
        rest += page["hits"]
    ids = seen + [h["objectID"] for h in rest]
    assert len(ids) == len(set(ids)), "no record twice"
    existed_throughout = {f"r{i:05d}" for i in range(300)} - {"r00010", "r00150"}
    assert existed_throughout - {"r00010"} <= set(ids), "none skipped"
    assert "r00150" not in ids, "deleted before its page was read"
    assert "r00250x" in ids and "r00050x" in ids, "a record added during the browse is seen"
    assert ids[-2:] == ["r00050x", "r00250x"], "after those that existed, as ties rank"
    assert next(h for h in rest if h["objectID"] == "r00200") == {"objectID": "r00200", "name": "replaced"}


def test_browse_rejects_bad_input_by_name(daemon):
    client = daemon.connect()
    save(client, "items", catalogue(5))
    cases = [({"index": "items", "hitsPerPage": 0}, "hitsPerPage"),
             ({"index": "items", "hitsPerPage": 1001}, "hitsPerPage"),
             ({"index": "items", "cursor": "!!!"}, "cursor"),
             ({"index": "items", "cursor": 12}, "cursor"),
             ({"index": "items", "filters": "price >"}, "filters"),
             ({"index": "items", "query": 3}, "query")]
    for params, name in cases:
        reply = client.request("browse", params)
        assert reply["error"]["code"] == -32602, (params, reply)
        assert f"'{name}'" in reply["error"]["message"], (params, reply)

    save(client, "other", catalogue(5))
    cursor = client.result("browse", {"index": "items", "hitsPerPage": 2})["cursor"]
    reply = client.request("browse", {"index": "other", "cursor": cursor})
    assert reply["error"]["code"] == -32602 and "'items'" in reply["error"]["message"], reply
    reply = client.request("browse", {"index": "items", "cursor": cursor, "filters": "stock > 1"})
    assert reply["error"]["code"] == -32602 and "'filters'" in reply["error"]["message"], reply


def test_export_then_import_recreates_the_index(daemon, short_tmp):
    client = daemon.connect()
    records = catalogue(2300)
    save(client, "source", records)
    client.result("setSettings", {"index": "source", "settings": {
        "searchableAttributes": ["name", "unordered(description)"], "attributesForFaceting": ["searchable(meta.brand)"],
        "customRanking": ["desc(stock)"], "paginationLimitedTo": 500}})

    dump = os.path.join(short_tmp, "source.ndjson")
    settings = os.path.join(short_tmp, "settings.json")
    done = quarry("export", "source", "-o", dump, "--settings", settings, socket_path=daemon.path)
    assert "exported 2300 records" in done.stderr
    assert not os.path.exists(dump + ".partial")
    quarry("import", "copy", dump, "--settings", settings, socket_path=daemon.path)

    copy_dump = os.path.join(short_tmp, "copy.ndjson")
    copy_settings = os.path.join(short_tmp, "copy-settings.json")
    quarry("export", "copy", "-o", copy_dump, "--settings", copy_settings, socket_path=daemon.path)
    with open(dump, "rb") as a, open(copy_dump, "rb") as b:
        original, copied = a.read().splitlines(), b.read().splitlines()
    assert len(original) == 2300 and original == copied, "byte-for-byte equal JSON per record"
    assert [json.loads(line) for line in original] == records, "in the order saved"
    with open(settings) as a, open(copy_settings) as b:
        assert json.load(a) == json.load(b)

    as_array = quarry("export", "source", "--format", "json", "--filters", "stock = 3", socket_path=daemon.path).stdout
    assert [r["objectID"] for r in json.loads(as_array)] == [r["objectID"] for r in records if r["stock"] == 3]
    empty = quarry("export", "source", "--format", "json", "--filters", "stock = 99", socket_path=daemon.path).stdout
    assert json.loads(empty) == []


def test_a_failed_export_leaves_no_file(daemon, short_tmp):
    dump = os.path.join(short_tmp, "nothing.ndjson")
    done = quarry("export", "absent", "-o", dump, socket_path=daemon.path, check=False)
    assert done.returncode != 0 and "does not exist" in done.stderr
    assert not os.path.exists(dump) and not os.path.exists(dump + ".partial")
