"""Algolia's REST API on the HTTP listener (issue 28, protocol/algolia-rest.md), driven by Algolia's official
Python client, unmodified, against the real daemon:

1. save_objects and wait_for_task; search_single_index with query, filters, facets, highlight and pagination
   answers hit for hit what the same search over JSON-RPC answers;
2. search over several indices with a facet request; search_for_facet_values;
3. get_settings / set_settings;
4. browse_objects reads every record past paginationLimitedTo;
5. get_objects, partial_update_objects, delete_objects, clear_objects, list_indices, delete_index; multiple_batch
   and the single-record calls;
6. replace_all_objects (a scoped copy to a temporary index, a batch, a move back) replaces the records, keeps
   the settings and leaves no temporary index; delete_by deletes exactly the records its filters match;
7. the errors a user meets are the client's own exceptions with Algolia's status codes;
8. the asyncio client searches too;
9. InstantSearch.js's request (URL-encoded params, the helper's disjunctive split) counts as `disjunctiveFilters` do.
"""
import asyncio
import json
import os
import urllib.parse

import pytest
from algoliasearch.http.exceptions import RequestException

from algolia_support import async_client, client, raw
from web_support import WebDaemon

PRODUCTS = [
    {"objectID": "1", "name": "red shirt", "color": "Red", "brand": "Acme", "price": 10},
    {"objectID": "2", "name": "blue shirt", "color": "Blue", "brand": "Acme", "price": 20},
    {"objectID": "3", "name": "red dress", "color": "Red", "brand": "Zeta", "price": 30},
    {"objectID": "4", "name": "green shirt", "color": "Green", "brand": "Bolt", "price": 40},
    {"objectID": "5", "name": "blue shirt with stripes", "color": "Blue", "brand": "Zeta", "price": 50},
]
SETTINGS = {"searchableAttributes": ["name"], "attributesForFaceting": ["color", "searchable(brand)", "price"]}


@pytest.fixture
def web(data_dir, short_tmp):
    daemon = WebDaemon(data_dir, os.path.join(short_tmp, "q.sock"), extra=("--max-message-size", "200000"))
    yield daemon
    daemon.kill()


@pytest.fixture
def shop(web):
    algolia = client(web)
    algolia.set_settings("shop", SETTINGS)
    responses = algolia.save_objects("shop", PRODUCTS, wait_for_tasks=True)
    assert [r.object_ids for r in responses] == [[p["objectID"] for p in PRODUCTS]]
    return algolia


def dicts(hits):
    return [hit.to_dict() for hit in hits]


def test_search_answers_as_json_rpc_does(web, shop):
    params = {"query": "shirt", "filters": "price < 45", "facets": ["color", "brand"], "hitsPerPage": 2, "page": 1,
              "attributesToHighlight": ["name"]}
    found = shop.search_single_index("shop", params).to_dict()
    peer = web.connect()
    expected = peer.result("search", {"index": "shop", **params})
    peer.close()
    assert found["hits"] == expected["hits"]
    assert len(found["hits"]) == 1
    assert "<em>shirt</em>" in found["hits"][0]["_highlightResult"]["name"]["value"]
    assert (found["nbHits"], found["page"], found["nbPages"]) == (3, 1, 2)
    assert found["facets"] == expected["facets"] == {"color": {"Blue": 1, "Red": 1, "Green": 1},
                                                     "brand": {"Acme": 2, "Bolt": 1}}


def test_multiple_queries_and_facet_values(web, shop):
    shop.save_objects("other", [{"objectID": "a", "name": "shirt a"}], wait_for_tasks=True)
    answer = shop.search({"requests": [
        {"indexName": "shop", "query": "shirt", "facets": ["brand"]},
        {"indexName": "other", "query": "shirt"},
        {"indexName": "shop", "type": "facet", "facet": "brand", "facetQuery": "ze"},
    ]}).to_dict()
    first, second, third = answer["results"]
    assert first["nbHits"] == 4 and first["facets"]["brand"] == {"Acme": 2, "Zeta": 1, "Bolt": 1}
    assert [h["objectID"] for h in second["hits"]] == ["a"]
    assert third["facetHits"] == [{"value": "Zeta", "highlighted": "<em>Ze</em>ta", "count": 2}]
    values = shop.search_for_facet_values("shop", "brand", {"facetQuery": "ac", "query": "shirt"}).to_dict()
    assert values["facetHits"] == [{"value": "Acme", "highlighted": "<em>Ac</em>me", "count": 2}]


def test_settings_round_trip(shop):
    shop.set_settings("shop", {"customRanking": ["desc(price)"]}, forward_to_replicas=True)
    settings = shop.get_settings("shop").to_dict()
    assert settings["customRanking"] == ["desc(price)"]
    assert settings["searchableAttributes"] == ["name"]
    assert [h.object_id for h in shop.search_single_index("shop", {"query": "shirt"}).hits][0] == "5"


def test_browse_reads_past_the_pagination_limit(web):
    algolia = client(web)
    algolia.set_settings("many", {"paginationLimitedTo": 100})
    records = [{"objectID": str(n), "n": n} for n in range(2500)]
    algolia.save_objects("many", records, wait_for_tasks=True)
    seen = []
    algolia.browse_objects("many", lambda page: seen.extend(h.object_id for h in page.hits), {"hitsPerPage": 1000})
    assert sorted(seen, key=int) == [str(n) for n in range(2500)]
    capped = algolia.search_single_index("many", {"hitsPerPage": 1000, "page": 1}).to_dict()
    assert capped["hits"] == []


def test_records_and_indices(web, shop):
    got = shop.get_objects({"requests": [{"indexName": "shop", "objectID": "2"},
                                          {"indexName": "shop", "objectID": "404"},
                                          {"indexName": "shop", "objectID": "3", "attributesToRetrieve": ["brand"]}]})
    assert got.to_dict()["results"] == [PRODUCTS[1], None, {"objectID": "3", "brand": "Zeta"}]
    shop.partial_update_objects("shop", [{"objectID": "1", "price": 11}, {"objectID": "9", "price": 1}],
                                create_if_not_exists=False, wait_for_tasks=True)
    assert shop.get_object("shop", "1")["price"] == 11
    with pytest.raises(RequestException) as missing:
        shop.get_object("shop", "9")
    assert missing.value.status_code == 404
    shop.delete_objects("shop", ["1", "2"], wait_for_tasks=True)
    assert shop.search_single_index("shop", {}).nb_hits == 3
    names = {item.name: item for item in shop.list_indices().items}
    # dataSize is the engine's record store; the Typesense backend reports 0 (protocol/backends.md).
    assert names["shop"].entries == 3 and names["shop"].data_size >= 0 and names["shop"].updated_at
    cleared = shop.clear_objects("shop")
    shop.wait_for_task("shop", cleared.task_id)
    assert shop.search_single_index("shop", {}).nb_hits == 0
    assert shop.get_settings("shop").to_dict()["searchableAttributes"] == ["name"]
    deleted = shop.delete_index("shop")
    shop.wait_for_task("shop", deleted.task_id)
    assert "shop" not in {item.name for item in shop.list_indices().items}


def test_replace_all_objects_replaces_the_records_and_keeps_the_settings(shop):
    fresh = [{"objectID": "x", "name": "new coat", "color": "Black", "brand": "Acme", "price": 5},
             {"objectID": "y", "name": "old coat", "color": "Red", "brand": "Zeta", "price": 7}]
    shop.replace_all_objects("shop", fresh, batch_size=1)
    found = shop.search_single_index("shop", {"facets": ["color"]}).to_dict()
    assert sorted(hit["objectID"] for hit in found["hits"]) == ["x", "y"]
    assert found["facets"]["color"] == {"Black": 1, "Red": 1}, "attributesForFaceting came along"
    assert shop.get_settings("shop").to_dict()["searchableAttributes"] == ["name"]
    assert [item.name for item in shop.list_indices().items] == ["shop"], "the temporary index is gone"


def test_delete_by_deletes_exactly_the_records_its_filters_match(shop):
    deleted = shop.delete_by("shop", {"filters": "color:Blue OR color:Green"})
    shop.wait_for_task("shop", deleted.task_id)
    left = shop.browse("shop", {}).to_dict()["hits"]
    assert sorted(hit["objectID"] for hit in left) == ["1", "3"]
    deleted = shop.delete_by("shop", {"facetFilters": [["brand:Zeta"]], "numericFilters": ["price >= 30"]})
    shop.wait_for_task("shop", deleted.task_id)
    assert [hit["objectID"] for hit in shop.browse("shop", {}).to_dict()["hits"]] == ["1"]
    with pytest.raises(RequestException) as bad:
        shop.delete_by("shop", {"filters": "price <"})
    assert bad.value.status_code == 400 and "filters" in str(bad.value)
    assert shop.search_single_index("shop", {}).nb_hits == 1, "a refused delete_by deleted nothing"


def test_errors_are_the_clients_own_with_algolias_statuses(web, shop):
    with pytest.raises(RequestException) as unknown:
        shop.search_single_index("nowhere", {"query": "x"})
    assert (unknown.value.status_code, str(unknown.value)) == (404, "Index does not exist")
    with pytest.raises(RequestException) as bad_filter:
        shop.search_single_index("shop", {"filters": "price <"})
    assert bad_filter.value.status_code == 400 and "filters" in str(bad_filter.value)
    reader = client(web, "search")
    assert reader.search_single_index("shop", {"query": "dress"}).nb_hits == 1
    with pytest.raises(RequestException) as forbidden:
        reader.save_objects("shop", [{"objectID": "6", "name": "intruder"}])
    assert forbidden.value.status_code == 403
    with pytest.raises(RequestException) as wrong:
        client(web, "not-a-key").search_single_index("shop", {})
    assert (wrong.value.status_code, str(wrong.value)) == (403, "Invalid Application-ID or API key")
    status, _, body = raw(web, "POST", "/1/indexes/shop/query", {"query": "x"})
    assert (status, body) == (403, {"message": "Invalid Application-ID or API key", "status": 403})
    assert shop.search_single_index("shop", {"query": "intruder"}).nb_hits == 0


def test_asyncio_client(web, shop):
    async def run():
        algolia = async_client(web, "search")
        try:
            return (await algolia.search_single_index("shop", {"query": "red"})).to_dict()
        finally:
            await algolia.close()
    found = asyncio.run(run())
    assert sorted(h["objectID"] for h in found["hits"]) == ["1", "3"]


def test_instantsearch_disjunctive_queries_count_as_disjunctive_filters(web, shop):
    """The helper's split: the main query with every refinement and all facets, then one query per disjunctive
    facet without its own refinements, asking only that facet's counts."""
    def encoded(params):
        return urllib.parse.urlencode({k: v if isinstance(v, str) else json.dumps(v) for k, v in params.items()})
    common = {"query": "shirt", "highlightPreTag": "__ais-highlight__", "highlightPostTag": "__/ais-highlight__"}
    requests = [
        {"indexName": "shop", "params": encoded({**common, "facets": ["brand", "color"], "hitsPerPage": 20,
                                                  "facetFilters": [["brand:Acme", "brand:Zeta"], ["color:Blue"]]})},
        {"indexName": "shop", "params": encoded({**common, "facets": "brand", "hitsPerPage": 0, "analytics": False,
                                                  "facetFilters": [["color:Blue"]]})},
        {"indexName": "shop", "params": encoded({**common, "facets": "color", "hitsPerPage": 0, "analytics": False,
                                                  "facetFilters": [["brand:Acme", "brand:Zeta"]]})},
    ]
    key = urllib.parse.quote(web.keys["search"])
    status, _, body = raw(web, "POST", f"/1/indexes/*/queries?x-algolia-api-key={key}&x-algolia-application-id=q",
                          json.dumps({"requests": requests}).encode(), {"Content-Type": "text/plain"})
    assert status == 200, body
    main, brands, colors = body["results"]
    peer = web.connect()
    one_pass = peer.result("search", {"index": "shop", "query": "shirt", "facets": ["brand", "color"],
                                      "disjunctiveFilters": {"brand": "brand:Acme OR brand:Zeta", "color": "color:Blue"}})
    peer.close()
    assert main["nbHits"] == one_pass["nbHits"] == 2
    assert brands["facets"]["brand"] == one_pass["facets"]["brand"]
    assert colors["facets"]["color"] == one_pass["facets"]["color"]
    assert "__ais-highlight__" in json.dumps(main["hits"][0]["_highlightResult"])


def test_multiple_batch_and_single_record_calls(shop):
    answer = shop.multiple_batch({"requests": [
        {"action": "addObject", "indexName": "shop", "body": {"objectID": "6", "name": "grey shirt"}},
        {"action": "updateObject", "indexName": "notes", "body": {"objectID": "n1", "text": "hello"}},
        {"action": "deleteObject", "indexName": "shop", "body": {"objectID": "1"}},
    ]})
    assert answer.object_ids == ["6", "n1", "1"] and set(answer.task_id) == {"shop", "notes"}
    for index, task in answer.task_id.items():
        shop.wait_for_task(index, task)
    assert shop.get_objects({"requests": [{"indexName": "notes", "objectID": "n1"}]}).to_dict()["results"] == [
        {"objectID": "n1", "text": "hello"}]
    saved = shop.save_object("shop", {"name": "no id shirt"})
    assert saved.object_id and saved.created_at
    shop.partial_update_object("shop", "6", {"price": 60})
    shop.add_or_update_object("shop", "7", {"name": "white shirt"})
    assert shop.get_object("shop", "6") == {"objectID": "6", "name": "grey shirt", "price": 60}
    assert shop.delete_object("shop", "7").deleted_at
    assert sorted(h.object_id for h in shop.search_single_index("shop", {"query": "shirt"}).hits) == sorted(
        ["2", "4", "5", "6", saved.object_id])
