import QuarryJSON
import XCTest

@testable import QuarryAlgoliaREST

final class AlgoliaRouterTests: XCTestCase {
    let router = AlgoliaRouter(stamp: { WriteStamp(taskID: 7, time: "2026-11-27T00:00:00.000Z") })

    func calls(_ plan: AlgoliaPlan) -> [RPCCall] {
        switch plan {
        case .respond: []
        case .call(let calls, _): calls
        case .forward(let call): [call]
        }
    }

    func request(_ method: AlgoliaRequest.Method, _ target: String, _ body: JSON? = nil) -> AlgoliaRequest {
        let (segments, query) = AlgoliaRequest.split(target: target) ?? ([], [:])
        return AlgoliaRequest(method: method, segments: segments, query: query, body: body)
    }

    func testPathsAndQueryItemsArePercentDecoded() {
        let split = AlgoliaRequest.split(target: "/1/indexes/my%20shop/a%2Fb?query=red+shirt&x=%E2%82%AC")
        XCTAssertEqual(split?.segments, ["indexes", "my shop", "a/b"])
        XCTAssertEqual(split?.query, ["query": "red shirt", "x": "€"])
        XCTAssertNil(AlgoliaRequest.split(target: "/rpc"))
    }

    func testAParamsStringBecomesSearchParameters() throws {
        let text = "query=red%20shirt&facets=%5B%22brand%22%2C%22color%22%5D&hitsPerPage=5"
            + "&facetFilters=%5B%5B%22brand%3AAcme%22%5D%5D&attributesToRetrieve=name,brand"
        let plan = router.plan(request(.post, "/1/indexes/shop/query", ["params": .string(text)]))
        XCTAssertEqual(calls(plan), [RPCCall("search", [
            "attributesToRetrieve": ["name", "brand"], "facetFilters": [["brand:Acme"]], "facets": ["brand", "color"],
            "hitsPerPage": "5", "query": "red shirt", "index": "shop",
        ])])
    }

    func testMultipleQueriesMixHitsAndFacetRequests() {
        let body: JSON = ["requests": [
            ["indexName": "shop", "query": "shirt"],
            ["indexName": "shop", "type": "facet", "facet": "brand", "params": "facetQuery=ac"],
        ]]
        XCTAssertEqual(calls(router.plan(request(.post, "/1/indexes/*/queries", body))), [
            RPCCall("search", ["query": "shirt", "index": "shop"]),
            RPCCall("searchForFacetValues", ["facetQuery": "ac", "index": "shop", "facetName": "brand"]),
        ])
    }

    func testABatchGroupsRunsOfOneActionInOrder() {
        let body: JSON = ["requests": [
            ["action": "addObject", "body": ["objectID": "1"]],
            ["action": "updateObject", "body": ["objectID": "2"]],
            ["action": "deleteObject", "body": ["objectID": "3"]],
            ["action": "deleteObject", "body": ["objectID": 4]],
            ["action": "partialUpdateObjectNoCreate", "body": ["objectID": "5", "x": 1]],
            ["action": "clear"],
        ]]
        XCTAssertEqual(calls(router.plan(request(.post, "/1/indexes/shop/batch", body))), [
            RPCCall("saveObjects", ["index": "shop", "objects": [["objectID": "1"], ["objectID": "2"]]]),
            RPCCall("deleteObjects", ["index": "shop", "objectIDs": ["3", "4"]]),
            RPCCall("partialUpdateObjects", ["index": "shop", "objects": [["objectID": "5", "x": 1]], "createIfNotExists": false]),
            RPCCall("clearObjects", ["index": "shop"]),
        ])
    }

    func testAnUnknownBatchActionIsA400NamingIt() {
        let body: JSON = ["requests": [["action": "upsert", "body": [:]]]]
        guard case .respond(let response) = router.plan(request(.post, "/1/indexes/shop/batch", body)) else {
            return XCTFail("expected an immediate answer")
        }
        XCTAssertEqual(response.status, 400)
        XCTAssertTrue(response.body["message"]?.stringValue?.contains("requests[0].action") ?? false)
    }

    func testUnsupportedFeaturesAreRefusedByName() {
        for (method, target, feature) in [(AlgoliaRequest.Method.get, "/1/keys", "API key management"),
                                          (.post, "/1/indexes/shop/rules/search", "Rules"),
                                          (.put, "/1/indexes/shop/synonyms/s1", "Synonyms")] {
            guard case .respond(let response) = router.plan(request(method, target)) else { return XCTFail(target) }
            XCTAssertEqual(response.status, 400, target)
            XCTAssertTrue(response.body["message"]?.stringValue?.contains(feature) ?? false, target)
        }
    }

    func testOperationPassesItsMembersToOperationIndex() {
        let body: JSON = ["operation": "copy", "destination": "shop_tmp", "scope": ["settings", "rules"], "other": 1]
        XCTAssertEqual(calls(router.plan(request(.post, "/1/indexes/shop/operation", body))), [
            RPCCall("operationIndex", ["index": "shop", "operation": "copy", "destination": "shop_tmp", "scope": ["settings", "rules"]]),
        ])
        guard case .respond(let response) = router.plan(request(.post, "/1/indexes/shop/operation")) else {
            return XCTFail("a missing body is answered at once")
        }
        XCTAssertEqual(response.status, 400)
    }

    func testDeleteByQueryReadsItsFiltersAsSearchParameters() {
        let body: JSON = ["filters": "brand:Acme", "params": "numericFilters=%5B%22price%3E5%22%5D"]
        XCTAssertEqual(calls(router.plan(request(.post, "/1/indexes/shop/deleteByQuery", body))), [
            RPCCall("deleteBy", ["filters": "brand:Acme", "numericFilters": ["price>5"], "index": "shop"]),
        ])
    }

    func testCopyAndDeleteByQueryAreWritesTheSearchKeyCannotReach() {
        for target in ["/1/indexes/shop/operation", "/1/indexes/shop/deleteByQuery"] {
            let plan = router.plan(request(.post, target, ["operation": "move", "destination": "x", "filters": "a:b"]))
            XCTAssertFalse(plan.searchOnlyMay, target)
        }
    }

    func testServerErrorsBecomeAlgoliasStatuses() {
        let missing = RPCFailure(code: -32602, message: "invalid params: index: an existing index: 'x' does not exist",
                                 data: ["parameter": "index"])
        XCTAssertEqual(missing.response, .error(404, "Index does not exist"))
        XCTAssertEqual(RPCFailure(code: -32602, message: "bad filter", data: nil).response.status, 400)
        XCTAssertEqual(RPCFailure(code: -32014, message: "forbidden", data: nil).response.status, 403)
    }

    func testABrowseWithACursorSendsOnlyTheCursor() {
        let body: JSON = ["cursor": "abc", "query": "shirt", "filters": "x:1", "hitsPerPage": 500]
        XCTAssertEqual(calls(router.plan(request(.post, "/1/indexes/shop/browse", body))), [
            RPCCall("browse", ["cursor": "abc", "hitsPerPage": 500, "index": "shop"]),
        ])
    }

    func testAGetSearchReadsItsQueryItemsAsAParamsString() {
        let plan = router.plan(request(.get, "/1/indexes/shop?query=red&facets=%5B%22brand%22%5D&x-algolia-api-key=k"))
        XCTAssertEqual(calls(plan), [RPCCall("search", ["facets": ["brand"], "query": "red", "index": "shop"])])
    }
}
