"""Who may use the REST API under /1/ (protocol/algolia-rest.md, "Keys, Host and Origin"), each refusal against the
real daemon over plain HTTP:

1. no key, a wrong key: 403 with Algolia's body; the key is read from X-Algolia-API-Key or the query string;
2. a search-only key reaches search, facet search, browse and getObjects; anything else is a 403 that changes nothing;
3. a foreign Host, or an Origin not given with --http-allow-origin: 403;
4. CORS: a preflight from an allowed origin gets Algolia's headers allowed; from another origin, a 403 and no CORS header;
5. a body over --max-message-size is a 413; a body that is not JSON, a 400;
6. unsupported features (rules, synonyms, keys, …) answer a 400 naming them; unknown endpoints a 404;
7. tasks are published at once, by index and by id alone;
8. REST traffic that has ended does not keep a daemon from its --idle-timeout.
"""
import os

import pytest

from algolia_support import raw
from web_support import WebDaemon

ALLOWED = "http://localhost:5173"


@pytest.fixture
def web(data_dir, short_tmp):
    daemon = WebDaemon(data_dir, os.path.join(short_tmp, "q.sock"),
                       extra=("--max-message-size", "4096", "--http-allow-origin", ALLOWED))
    admin = {"X-Algolia-API-Key": daemon.keys["admin"], "X-Algolia-Application-Id": "any"}
    status, _, body = raw(daemon, "POST", "/1/indexes/books/batch", {"requests": [
        {"action": "addObject", "body": {"objectID": "1", "title": "the river"}},
        {"action": "addObject", "body": {"objectID": "2", "title": "the stone"}}]}, admin)
    assert status == 200 and body["objectIDs"] == ["1", "2"], body
    yield daemon
    daemon.kill()


def headers(web, key="admin", **extra):
    return {"X-Algolia-API-Key": web.keys[key], "X-Algolia-Application-Id": "any", **extra}


def count(web):
    status, _, body = raw(web, "GET", "/1/indexes/books?query=", headers=headers(web))
    assert status == 200, body
    return body["nbHits"]


def test_missing_and_wrong_keys(web):
    for sent in ({}, {"X-Algolia-API-Key": "wrong"}, {"Authorization": "Bearer wrong"}):
        status, _, body = raw(web, "GET", "/1/indexes", headers=sent)
        assert (status, body) == (403, {"message": "Invalid Application-ID or API key", "status": 403})
    status, _, body = raw(web, "GET", f"/1/indexes/books?query=stone&x-algolia-api-key={web.keys['search']}")
    assert status == 200 and [hit["objectID"] for hit in body["hits"]] == ["2"]


def test_search_only_key_reads_and_cannot_write(web):
    reader = headers(web, "search")
    assert raw(web, "POST", "/1/indexes/books/query", {"query": "river"}, reader)[2]["nbHits"] == 1
    assert raw(web, "POST", "/1/indexes/books/browse", {}, reader)[2]["nbHits"] == 2
    objects = {"requests": [{"indexName": "books", "objectID": "2"}]}
    assert raw(web, "POST", "/1/indexes/*/objects", objects, reader)[2]["results"][0]["title"] == "the stone"
    writes = [
        ("POST", "/1/indexes/books/batch", {"requests": [{"action": "addObject", "body": {"title": "x"}}]}),
        ("POST", "/1/indexes/*/batch", {"requests": [{"action": "clear", "indexName": "books"}]}),
        ("PUT", "/1/indexes/books/9", {"title": "x"}),
        ("POST", "/1/indexes/books", {"title": "x"}),
        ("POST", "/1/indexes/books/1/partial", {"title": "x"}),
        ("DELETE", "/1/indexes/books/1", None),
        ("POST", "/1/indexes/books/clear", None),
        ("PUT", "/1/indexes/books/settings", {"searchableAttributes": ["x"]}),
        ("DELETE", "/1/indexes/books", None),
        # Algolia's search-only key does not read settings or list indices either.
        ("GET", "/1/indexes/books/settings", None),
        ("GET", "/1/indexes", None),
    ]
    for method, path, body in writes:
        status, _, answer = raw(web, method, path, body, reader)
        assert (status, answer) == (403, {"message": "Method not allowed with this API key", "status": 403}), path
    assert count(web) == 2


def test_foreign_host_and_origin(web):
    status, _, body = raw(web, "GET", "/1/indexes", headers=headers(web, Host="evil.example"))
    assert status == 403 and body["status"] == 403
    status, answer_headers, body = raw(web, "GET", "/1/indexes", headers=headers(web, Origin="http://evil.example"))
    assert status == 403 and "Access-Control-Allow-Origin" not in answer_headers
    status, answer_headers, _ = raw(web, "GET", "/1/indexes", headers=headers(web, Origin=ALLOWED))
    assert status == 200 and answer_headers["Access-Control-Allow-Origin"] == ALLOWED


def test_cors_preflight_only_for_an_allowed_origin(web):
    asked = {"Access-Control-Request-Method": "POST",
             "Access-Control-Request-Headers": "x-algolia-api-key,x-algolia-application-id,content-type"}
    status, answer_headers, _ = raw(web, "OPTIONS", "/1/indexes/*/queries", headers={"Origin": ALLOWED, **asked})
    assert status == 204
    assert answer_headers["Access-Control-Allow-Origin"] == ALLOWED
    assert "POST" in answer_headers["Access-Control-Allow-Methods"]
    assert "x-algolia-api-key" in answer_headers["Access-Control-Allow-Headers"]
    status, answer_headers, _ = raw(web, "OPTIONS", "/1/indexes/*/queries",
                                    headers={"Origin": "http://localhost:3000", **asked})
    assert status == 403 and "Access-Control-Allow-Origin" not in answer_headers


def test_oversized_and_malformed_bodies(web):
    big = {"requests": [{"action": "addObject", "body": {"objectID": "big", "text": "x" * 5000}}]}
    status, _, body = raw(web, "POST", "/1/indexes/books/batch", big, headers(web))
    assert status == 413 and "--max-message-size" in body["message"]
    status, _, body = raw(web, "POST", "/1/indexes/books/query", b"{not json", headers(web))
    assert status == 400 and body["message"].startswith("the body is not JSON")
    status, _, body = raw(web, "POST", "/1/indexes/books/batch", {"requests": [{"action": "upsert", "body": {}}]},
                          headers(web))
    assert status == 400 and "requests[0].action" in body["message"]
    assert count(web) == 2


@pytest.mark.parametrize("method,path,feature", [
    ("POST", "/1/indexes/books/rules/search", "Rules"),
    ("PUT", "/1/indexes/books/synonyms/s1", "Synonyms"),
    ("GET", "/1/keys", "API key management"),
])
def test_unsupported_features_are_named(web, method, path, feature):
    status, _, body = raw(web, method, path, {}, headers(web))
    assert status == 400 and feature in body["message"], body


@pytest.mark.parametrize("path,body,named", [
    ("/1/indexes/books/operation", {"destination": "copy"}, "operation"),
    ("/1/indexes/books/operation", {"operation": "copy"}, "destination"),
    ("/1/indexes/books/operation", {"operation": "move", "destination": "books"}, "destination"),
    ("/1/indexes/books/operation", {"operation": "copy", "destination": "c", "scope": ["records"]}, "scope[0]"),
    ("/1/indexes/books/deleteByQuery", {}, "filters"),
])
def test_bad_copy_and_delete_by_query_bodies_are_400s_naming_the_member(web, path, body, named):
    status, _, answer = raw(web, "POST", path, body, headers(web))
    assert status == 400 and named in answer["message"], answer
    assert count(web) == 2, "nothing was deleted"


def test_copying_an_unknown_index_is_a_404(web):
    status, _, answer = raw(web, "POST", "/1/indexes/nowhere/operation", {"operation": "copy", "destination": "c"},
                            headers(web))
    assert (status, answer["message"]) == (404, "Index does not exist")


def test_unknown_endpoint_and_tasks(web):
    status, _, body = raw(web, "GET", "/1/nothing/here", headers=headers(web))
    assert status == 404 and "no such endpoint" in body["message"]
    status, _, first = raw(web, "PUT", "/1/indexes/books/3", {"title": "the sea"}, headers(web))
    assert status == 200 and first["objectID"] == "3" and first["updatedAt"]
    status, _, second = raw(web, "DELETE", "/1/indexes/books/3", None, headers(web))
    assert status == 200 and second["taskID"] > first["taskID"] and second["deletedAt"]
    for path in (f"/1/indexes/books/task/{second['taskID']}", f"/1/task/{second['taskID']}"):
        status, _, body = raw(web, "GET", path, headers=headers(web, "search"))
        assert (status, body["status"]) == (200, "published")


def test_rest_traffic_that_ended_does_not_keep_the_daemon_from_its_idle_timeout(data_dir, short_tmp):
    """The REST link is a server connection; it closes after --http-idle-timeout without a request."""
    daemon = WebDaemon(data_dir, os.path.join(short_tmp, "q.sock"),
                       extra=("--idle-timeout", "2", "--http-idle-timeout", "1"))
    try:
        status, _, body = raw(daemon, "GET", "/1/indexes", headers=headers(daemon))
        assert status == 200, body
        status, _, _ = raw(daemon, "GET", "/1/indexes/books/1", headers=headers(daemon, "search"))
        assert status == 404
        assert daemon.process.wait(10) == 0
    finally:
        daemon.kill()
