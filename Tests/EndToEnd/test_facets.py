"""Filters, facets, facet search and replicas through the real daemon (issue 4).

1. `search` filters with `filters` and the array forms, and counts facets exactly, with stats;
2. `disjunctiveFilters` relax only their own attribute's counts; a selected value with no match is listed with 0;
3. `searchForFacetValues` returns `facetHits` with counts under the query and filters;
4. a virtual replica applies relevant sort and reports `appliedRelevancyStrictness` and `nbSortedHits`;
5. filtering on an undeclared facet is a -32602 error naming the attribute and the setting;
6. `quarry search --filters --facets` prints the filtered hits and the counts.
"""
import json
import subprocess

from harness import quarry_binary

PRODUCTS = [
    {"objectID": "1", "name": "red shirt", "color": "Red", "brand": "Acme", "price": 10, "popularity": 1},
    {"objectID": "2", "name": "blue shirt", "color": "Blue", "brand": "Acme", "price": 20, "popularity": 5},
    {"objectID": "3", "name": "red dress", "color": "Red", "brand": "Zeta", "price": 30, "popularity": 9},
    {"objectID": "4", "name": "green shirt", "color": "Green", "brand": "Bolt", "price": 40, "popularity": 7},
]


def setup(client):
    client.result("setSettings", {"index": "shop", "settings": {
        "searchableAttributes": ["name"], "attributesForFaceting": ["color", "searchable(brand)", "price"],
        "replicas": ["virtual(shop_popular)"]}})
    client.result("saveObjects", {"index": "shop", "objects": PRODUCTS})
    client.result("setSettings", {"index": "shop_popular", "settings": {"customRanking": ["desc(popularity)"]}})


def test_filters_facets_and_stats(daemon):
    client = daemon.connect()
    setup(client)
    found = client.result("search", {"index": "shop", "query": "shirt", "filters": "price < 35",
                                     "facetFilters": [["color:red", "color:blue"]], "facets": ["*"]})
    assert sorted(hit["objectID"] for hit in found["hits"]) == ["1", "2"]
    assert found["facets"]["color"] == {"Blue": 1, "Red": 1}
    assert found["facets_stats"]["price"] == {"min": 10, "max": 20, "avg": 15, "sum": 30}
    assert found["exhaustive"]["facetsCount"] is True


def test_disjunctive_counts(daemon):
    client = daemon.connect()
    setup(client)
    found = client.result("search", {"index": "shop", "query": "", "facets": ["color", "brand"],
                                     "disjunctiveFilters": {"color": "color:Red OR color:Purple"}})
    assert found["nbHits"] == 2
    assert found["facets"]["color"] == {"Red": 2, "Blue": 1, "Green": 1, "Purple": 0}
    assert found["facets"]["brand"] == {"Acme": 1, "Zeta": 1}


def test_search_for_facet_values(daemon):
    client = daemon.connect()
    setup(client)
    result = client.result("searchForFacetValues", {"index": "shop", "facetName": "brand", "facetQuery": "ac"})
    assert result["facetHits"] == [{"value": "Acme", "highlighted": "<em>Ac</em>me", "count": 2}]
    narrowed = client.result("searchForFacetValues", {"index": "shop", "facetName": "brand", "facetQuery": "",
                                                      "query": "shirt", "filters": "price > 15"})
    assert [(h["value"], h["count"]) for h in narrowed["facetHits"]] == [("Acme", 1), ("Bolt", 1)]


def test_virtual_replica_relevant_sort(daemon):
    client = daemon.connect()
    setup(client)
    strict = client.result("search", {"index": "shop_popular", "query": "shirt"})
    assert strict["appliedRelevancyStrictness"] == 100
    assert strict["nbHits"] == 3
    assert [hit["objectID"] for hit in strict["hits"]] == ["4", "2", "1"]
    assert strict["nbSortedHits"] == 3
    relaxed = client.result("search", {"index": "shop_popular", "query": "", "relevancyStrictness": 0})
    assert [hit["objectID"] for hit in relaxed["hits"]] == ["3", "4", "2", "1"]


def test_undeclared_facet_is_an_error(daemon):
    client = daemon.connect()
    setup(client)
    reply = client.request("search", {"index": "shop", "filters": "size:M"})
    assert reply["error"]["code"] == -32602
    assert "'size'" in reply["error"]["message"] and "attributesForFaceting" in reply["error"]["message"]


def test_cli_filters_and_facets(daemon):
    client = daemon.connect()
    setup(client)
    done = subprocess.run([quarry_binary(), "search", "shop", "shirt", "--filters", "brand:Acme", "--facets", "color",
                           "--json", "--socket", daemon.path], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["nbHits"] == 2
    assert found["facets"]["color"] == {"Blue": 1, "Red": 1}


def test_list_indices_reports_memory_on_request(daemon):
    client = daemon.connect()
    setup(client)
    plain = client.result("listIndices")["items"][0]
    assert "memory" not in plain
    before = {item["name"]: item["memory"] for item in client.result("listIndices", {"memory": True})["items"]}
    memory = before["shop"]
    assert memory["total"] == sum(memory["structures"].values()) > 0
    assert memory["structures"]["facets"] > 0 and memory["structures"]["postings"] > 0
    assert memory["neighborRows"] <= memory["neighborRowLimit"] == 16384 * memory["segments"]
    for query in ["red shirt", "blue", "shirt re", "gre", "acme red"]:
        client.result("search", {"index": "shop", "query": query, "facets": ["color"]})
    after = client.result("listIndices", {"memory": True})["items"][0]["memory"]
    grown = {k for k, v in after["structures"].items() if v != memory["structures"][k]}
    assert grown <= {"neighborRows"}, "only the bounded neighbour rows grow while serving"
    error = client.request("listIndices", {"memory": "yes"})["error"]
    assert error["code"] == -32602 and "memory" in error["message"]
