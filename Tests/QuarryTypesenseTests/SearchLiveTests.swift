import Foundation
import QuarryEngine
import QuarryJSON
@testable import QuarryTypesense
import XCTest
import QuarrySearchContract

/// The acceptance test: on a real Typesense node, the multi_search `TypesenseSearch`
/// makes is accepted, and hit and facet counts equal the embedded engine's over the same records
/// (and, for one-letter prefixes, a brute-force count over the records):
/// 1. 300 generated records, indexed through `CollectionSchema` and `DocumentBuilder`;
/// 2. one-letter prefixes, longer prefixes, one-typo words (never on the first letter: there the
///    engine charges two typos and Typesense one), several words, the empty query;
/// 3. filters through the real `FilterTranslator`, disjunctive facets, facets_stats;
/// 4. every hit of every query (hitsPerPage 1000: pages stitched from 250-hit pages).
final class SearchLiveTests: XCTestCase {
    static let settingsJSON: JSONObject = [
        "searchableAttributes": ["title", "brand"],
        "attributesForFaceting": ["color", "searchable(brand)", "price", "_tags", "category.lvl0", "category.lvl1"],
        "customRanking": ["desc(popularity)"],
    ]
    static let vocabulary = ["giver", "giving", "given", "gift", "garden", "taker", "table", "tablet", "tabloid", "apple", "apply",
                             "amber", "banana", "bandana", "band", "river", "rover", "silver", "salt", "solid"]
    static let colors = ["red", "blue", "green", "black", "white"]
    static let brands = ["Acme", "Bolt", "Core", "Dyna", "Echo"]

    func testCountsEqualTheEngineAndBruteForce() throws {
        let node = try TypesenseTestNode.start()
        defer { node.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-search-live-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let engine = try Engine(directory: directory.path, log: { _ in })
        defer { engine.close() }

        var random = SearchRandom(seed: 11)
        let records = (0..<300).map { Self.record($0, &random) }
        var settings = IndexSettings()
        try settings.merge(Self.settingsJSON)
        _ = try engine.setSettings(Self.settingsJSON, index: "live")
        _ = try engine.saveObjects(records, index: "live")
        let client = LiveClient(address: node.address)
        let fields = try client.index(records, settings: settings, collection: "live")

        let queries = ["", "g", "t", "a", "b", "s", "r", "ta", "giv", "band", "tablte", "bananna", "silvar", "rivr", "tablet given ",
                       "apple si", "solid gift", "amber apply banana"]
        let refinements: [JSONObject] = [
            [:],
            ["filters": "color:red"],
            ["filters": "price > 50 AND NOT color:blue"],
            ["filters": "(brand:Acme OR brand:Bolt) AND NOT _tags:sale"],
            ["disjunctiveFilters": ["color": "color:red OR color:blue"]],
            ["filters": "price < 60", "disjunctiveFilters": ["color": "color:green", "brand": "brand:Core OR brand:Echo"]],
            ["hierarchicalFacets": [["attributes": ["category.lvl0", "category.lvl1"], "separator": " > ", "path": "Books > a"]],
             "disjunctiveFilters": ["color": "color:red OR color:white"]],
        ]
        var compared = 0
        for query in queries {
            for refinement in refinements {
                var parameters: JSONObject = ["query": .string(query), "hitsPerPage": 1000, "facets": ["color", "brand", "price", "_tags"]]
                for (key, value) in refinement { parameters[key] = value }
                let expected = try engine.search(index: "live", parameters: parameters)
                let actual = try TypesenseSearch.search(
                    index: "live", parameters: parameters, settings: settings, collection: "live", fields: fields,
                    positionEncoding: .utf16, highlighting: nil, multiSearch: client.multiSearch)
                let context = "\(query) \(JSONWriter.string(.object(refinement)))"
                XCTAssertEqual(actual["nbHits"], expected["nbHits"], context)
                XCTAssertEqual(actual["facets"], expected["facets"], context)
                XCTAssertEqual(actual["facets_stats"], expected["facets_stats"], context)
                XCTAssertEqual(Self.ids(actual), Self.ids(expected), context)
                compared += 1
            }
        }
        XCTAssertEqual(compared, queries.count * refinements.count)

        // typoTolerance min: only the hits with the fewest typos.
        for query in ["tablte", "giving", "band", "rivr", "silver gift"] {
            let parameters: JSONObject = ["query": .string(query), "typoTolerance": "min", "facets": ["color"], "hitsPerPage": 1000]
            let actual = try TypesenseSearch.search(
                index: "live", parameters: parameters, settings: settings, collection: "live", fields: fields,
                positionEncoding: .utf16, highlighting: nil, multiSearch: client.multiSearch)
            let expected = try engine.search(index: "live", parameters: parameters)
            XCTAssertEqual(actual["nbHits"], expected["nbHits"], "min \(query)")
            XCTAssertEqual(actual["facets"], expected["facets"], "min \(query)")
        }

        // Two differences, both Typesense's own word matching, on records made to show them:
        // a typo on the first letter costs 1, not 2 ("giver" finds "river"); with a typo in an
        // earlier word, the last word's prefix expands only to the words found with the typo-free
        // combination ("apple s" finds "apple salt" but neither "apply silver" nor "apply solid",
        // while "apple si" finds "apply silver"). No 0.24 parameter changes the second
        // (exhaustive_search drops words instead).
        let small: [JSONObject] = [["objectID": "1", "title": "apple salt", "_geoloc": ["lat": 48.85, "lng": 2.35]],
                                   ["objectID": "2", "title": "apply silver", "_geoloc": ["lat": 48.86, "lng": 2.36]],
                                   ["objectID": "3", "title": "apply solid", "_geoloc": [["lat": 40.0, "lng": 3.0], ["lat": 48.9, "lng": 2.3]]],
                                   ["objectID": "4", "title": "river table", "_geoloc": ["lat": 45.0, "lng": 5.0]],
                                   ["objectID": "5", "title": "giver"]]
        _ = try engine.setSettings(Self.settingsJSON, index: "small")
        _ = try engine.saveObjects(small, index: "small")
        let smallFields = try client.index(small, settings: settings, collection: "small")
        let both = { (query: String) throws -> [Set<String>] in
            let parameters: JSONObject = ["query": .string(query)]
            let actual = try TypesenseSearch.search(
                index: "small", parameters: parameters, settings: settings, collection: "small", fields: smallFields,
                positionEncoding: .utf16, highlighting: nil, multiSearch: client.multiSearch)
            return [Self.ids(actual), Self.ids(try engine.search(index: "small", parameters: parameters))]
        }
        XCTAssertEqual(try both("giver"), [["5", "4"], ["5"]])
        XCTAssertEqual(try both("apple s"), [["1"], ["1", "2", "3"]])
        XCTAssertEqual(try both("apple si"), [["2"], ["2"]])

        // Geo: a radius and a box keep what the engine keeps; the centre orders by distance.
        for geo: JSONObject in [["aroundLatLng": "48.85,2.35", "aroundRadius": 2000], ["aroundLatLng": "48.85,2.35", "aroundRadius": 7000],
                                ["insideBoundingBox": [[44, 1, 49, 6]]], ["aroundLatLng": "45,5"]] {
            let actual = try TypesenseSearch.search(
                index: "small", parameters: geo, settings: settings, collection: "small", fields: smallFields,
                positionEncoding: .utf16, highlighting: nil, multiSearch: client.multiSearch)
            let expected = try engine.search(index: "small", parameters: geo)
            XCTAssertEqual(actual["nbHits"], expected["nbHits"], JSONWriter.string(.object(geo)))
            // Hits tied on every sort key (no centre here) come in each backend's own order.
            if geo["aroundLatLng"] != nil {
                XCTAssertEqual(actual["hits"]?.arrayValue?.first?["objectID"], expected["hits"]?.arrayValue?.first?["objectID"])
            }
        }

        // Relevant sort on a virtual replica: Typesense takes the bucketed text score, the response says which strictness applied.
        var replica = settings
        replica.isVirtualReplica = true
        let relevant = try TypesenseSearch.search(
            index: "small", parameters: ["query": "apply", "relevancyStrictness": 80], settings: replica, collection: "small",
            fields: smallFields, positionEncoding: .utf16, highlighting: nil, multiSearch: client.multiSearch)
        XCTAssertEqual(relevant["appliedRelevancyStrictness"], 80)
        XCTAssertEqual(relevant["nbHits"], 3)

        // Distinct (on brand, which 10% of records lack): documents built under these settings carry
        // `SearchTranslation.distinctKeyField` (the first brand, or a key of the record's own), so nbHits,
        // facets and the pages' hits are the engine's.
        var distinctSettings = settings
        distinctSettings.attributeForDistinct = "brand"
        var distinctJSON = Self.settingsJSON
        distinctJSON["attributeForDistinct"] = "brand"
        _ = try engine.setSettings(distinctJSON, index: "live")
        let keyed = try client.index(records, settings: distinctSettings, collection: "keyed")
        XCTAssertTrue(keyed.contains(SearchTranslation.distinctKeyField))
        for query in ["", "g", "tablte", "band s"] {
            for distinct in [1, 2] {
                for page in [0, 3] {
                    let parameters: JSONObject = ["query": .string(query), "distinct": JSON(distinct), "facets": ["color"],
                                                  "hitsPerPage": 7, "page": JSON(page)]
                    let expected = try engine.search(index: "live", parameters: parameters)
                    let actual = try TypesenseSearch.search(
                        index: "live", parameters: parameters, settings: distinctSettings, collection: "keyed", fields: keyed,
                        positionEncoding: .utf16, highlighting: nil, multiSearch: client.multiSearch)
                    for key in ["nbHits", "nbPages", "facets"] {
                        XCTAssertEqual(actual[key], expected[key], "\(key) \(query) \(distinct) \(page)")
                    }
                    // As sets, for the empty query: records tied on popularity come in each backend's own order.
                    if query.isEmpty { XCTAssertEqual(Self.ids(actual), Self.ids(expected), "hits \(distinct) \(page)") }
                }
            }
        }
        _ = try engine.setSettings(Self.settingsJSON, index: "live")

        // searchForFacetValues: typos and prefixes by the engine's matcher, counts under the query and filters.
        for (facetQuery, refinement) in [("ac", [:]), ("acmr", [:]), ("e", ["query": "g", "filters": "color:red"]), ("", ["query": "tab"])]
            as [(String, JSONObject)] {
            var parameters = refinement
            parameters["facetQuery"] = .string(facetQuery)
            let expected = try engine.searchForFacetValues(index: "live", attribute: "brand", parameters: parameters)
            let actual = try TypesenseSearch.searchForFacetValues(
                index: "live", attribute: "brand", parameters: parameters, settings: settings, collection: "live", fields: fields,
                multiSearch: client.multiSearch)
            XCTAssertEqual(actual["facetHits"], expected["facetHits"], facetQuery)
            XCTAssertFalse(actual["facetHits"]?.arrayValue?.isEmpty ?? true, facetQuery)
        }

        // optionalFilters sort the hits passing one first (`_eval` over the real translator's filter).
        let optional = try TypesenseSearch.search(
            index: "live", parameters: ["query": "", "optionalFilters": ["color:white"], "hitsPerPage": 1000], settings: settings,
            collection: "live", fields: fields, positionEncoding: .utf16, highlighting: nil,
            multiSearch: client.multiSearch)
        let colors = optional["hits"]?.arrayValue?.compactMap { $0["color"]?.stringValue } ?? []
        let whites = colors.filter { $0 == "white" }.count
        XCTAssertGreaterThan(whites, 0)
        XCTAssertEqual(Array(colors.prefix(whites)), Array(repeating: "white", count: whites))

        // Brute force: a one-letter prefix matches the records with a title or brand word starting with it.
        for letter in ["g", "t", "a", "b"] {
            let expected = records.filter { record in
                let text = [record["title"]?.stringValue, record["brand"]?.stringValue].compactMap { $0 }.joined(separator: " ")
                return text.lowercased().split(separator: " ").contains { $0.hasPrefix(letter) }
            }.count
            let actual = try TypesenseSearch.search(
                index: "live", parameters: ["query": .string(letter)], settings: settings, collection: "live", fields: fields,
                positionEncoding: .utf16, highlighting: nil, multiSearch: client.multiSearch)
            XCTAssertEqual(actual["nbHits"]?.intValue, expected, letter)
        }
    }

    /// Facets asking Typesense for the top values only (`FacetCut`): with `label` 300 values tied at
    /// every count and `kind` 200 values of falling counts, maxValuesPerFacet 10 lists the engine's
    /// values in the engine's order, fetching every value again exactly when a tie spans Typesense's
    /// cut or a selected value is missing; `facets_stats` only where records hold JSON numbers.
    func testTopValuesWithTiesAroundTheCutAreTheEngines() throws {
        let node = try TypesenseTestNode.start()
        defer { node.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-search-ties-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let engine = try Engine(directory: directory.path, log: { _ in })
        defer { engine.close() }

        // kind j is held by 40 - j/5 records (ties of five), spread over the records.
        var kinds: [String] = []
        for j in 0..<200 { kinds += Array(repeating: "k\(j)", count: 40 - j / 5) }
        let n = 3000
        let records: [JSONObject] = (0..<n).map { i in
            let held = stride(from: i, to: kinds.count, by: n).map { JSON.string(kinds[$0]) }
            return ["objectID": .string("r\(i)"), "title": .string(Self.vocabulary[i % 7] + " " + Self.vocabulary[(i / 7) % 11]),
                    "label": .string("v\(i % 300)"), "kind": .array(held), "code": .string(String(i % 500)), "size": JSON(i % 7)]
        }
        let settingsJSON: JSONObject = ["searchableAttributes": ["title"], "attributesForFaceting": ["label", "kind", "code", "size"]]
        var settings = IndexSettings()
        try settings.merge(settingsJSON)
        _ = try engine.setSettings(settingsJSON, index: "ties")
        _ = try engine.saveObjects(records, index: "ties")
        let client = LiveClient(address: node.address)
        let fields = try client.index(records, settings: settings, collection: "ties")

        var calls = 0
        let counted: TypesenseSearch.MultiSearch = { (searches) throws(BackendError) -> [JSONObject] in
            calls += 1
            return try client.multiSearch(searches)
        }
        // (parameters, multi_searches expected: 2 when the first answer left a tie or a selected value uncertain)
        let cases: [(JSONObject, Int)] = [
            (["facets": ["kind"]], 1),
            (["facets": ["label"]], 2),
            (["facets": ["label", "kind"], "query": "g"], 2),
            (["facets": ["kind"], "query": "a"], 1),
            (["facets": ["kind"], "disjunctiveFilters": ["kind": "kind:k150 OR kind:none"]], 2),
            (["facets": ["label", "kind"], "filters": "label:v7 OR label:v8"], 1),
            (["facets": ["kind"], "maxValuesPerFacet": 0, "disjunctiveFilters": ["kind": "kind:k0 OR kind:k1"]], 1),
            // Whether `none` matched nothing (listed with 0) only every value tells.
            (["facets": ["kind"], "disjunctiveFilters": ["kind": "kind:k0 OR kind:none"]], 2),
            (["facets": ["label"], "maxValuesPerFacet": 300, "query": "t"], 1),
            // Numeric strings only: no stats, as in the engine; JSON numbers: stats, every value asked at once.
            (["facets": ["code"]], 2),
            (["facets": ["size", "kind"]], 1),
        ]
        for (refinement, expectedCalls) in cases {
            var parameters: JSONObject = ["maxValuesPerFacet": 10, "hitsPerPage": 0]
            for (key, value) in refinement { parameters[key] = value }
            calls = 0
            let actual = try TypesenseSearch.search(
                index: "ties", parameters: parameters, settings: settings, collection: "ties", fields: fields,
                positionEncoding: .utf16, highlighting: nil, multiSearch: counted)
            let expected = try engine.search(index: "ties", parameters: parameters)
            let context = JSONWriter.string(.object(refinement))
            XCTAssertEqual(actual["nbHits"], expected["nbHits"], context)
            XCTAssertEqual(JSONWriter.string(actual["facets"] ?? .null), JSONWriter.string(expected["facets"] ?? .null), context)
            XCTAssertEqual(actual["facets_stats"], expected["facets_stats"], context)
            XCTAssertEqual(calls, expectedCalls, context)
        }
        let labels = try TypesenseSearch.search(
            index: "ties", parameters: ["facets": ["label"], "maxValuesPerFacet": 10], settings: settings, collection: "ties",
            fields: fields, positionEncoding: .utf16, highlighting: nil, multiSearch: client.multiSearch)
        XCTAssertEqual(labels["facets"]?["label"]?.objectValue?.keys.map { $0 }, ["v0", "v1", "v10", "v100", "v101", "v102", "v103", "v104",
                                                                                  "v105", "v106"])
    }

    static func ids(_ response: JSON) -> Set<String> {
        Set(response["hits"]?.arrayValue?.compactMap { $0["objectID"]?.stringValue } ?? [])
    }

    static func record(_ i: Int, _ random: inout SearchRandom) -> JSONObject {
        let words = (0..<(2 + random.below(3))).map { _ in vocabulary[random.below(vocabulary.count)] }
        var record: JSONObject = ["objectID": .string("r\(i)"), "title": .string(words.joined(separator: " ")),
                                  "color": .string(colors[random.below(colors.count)]),
                                  "price": JSON(1 + random.below(100)), "popularity": JSON(random.below(1000))]
        if random.below(10) > 0 { record["brand"] = .string(brands[random.below(brands.count)]) }
        let top = ["Books", "Garden", "Tools"][random.below(3)]
        record["category"] = ["lvl0": .string(top), "lvl1": .string(top + " > " + ["a", "b", "c"][random.below(3)])]
        let tags = ["new", "sale", "eco"].filter { _ in random.below(3) == 0 }
        if !tags.isEmpty { record["_tags"] = .array(tags.map(JSON.string)) }
        return record
    }
}

/// A seeded generator (SplitMix64), so a failure replays.
struct SearchRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

/// Plain HTTP to the test node: create the collection, import, read its fields, multi_search.
struct LiveClient {
    let address: String

    func send(_ method: HTTPMethod, _ target: String, body: [UInt8]? = nil) throws -> [UInt8] {
        let request = HTTPRequest(method: method, baseURL: "http://\(address)", target: target,
                                  headers: ["X-TYPESENSE-API-KEY": TypesenseTestNode.apiKey], body: body, timeout: 30)
        let response = try URLSessionTransport.shared.send(request)
        guard response.isSuccess else { throw BackendError.storage("HTTP \(response.status): \(String(decoding: response.body, as: UTF8.self))") }
        return response.body
    }

    /// `adjust` changes each document before import; a field it adds is declared (string, facet).
    func index(
        _ records: [JSONObject], settings: IndexSettings, collection: String, adjust: ((JSONObject, inout JSONObject) -> Void)? = nil
    ) throws -> Set<String> {
        let schema = CollectionSchema.body(collection: collection, settings: settings)
        _ = try send(.post, "/collections", body: JSONWriter.encode(.object(schema)))
        let builder = DocumentBuilder(settings: settings)
        let lines = try records.map { record in
            var document = try builder.document(for: record)
            adjust?(record, &document)
            return JSONWriter.string(.object(document))
        }.joined(separator: "\n")
        let answer = String(decoding: try send(.post, "/collections/\(collection)/documents/import?action=create", body: Array(lines.utf8)),
                            as: UTF8.self)
        let failures = answer.split(separator: "\n").filter { !$0.contains("\"success\":true") }
        guard failures.isEmpty else { throw BackendError.storage("import: \(failures.prefix(3))") }
        let created = try JSONParser.parse(try send(.get, "/collections/\(collection)"))
        return Set(created["fields"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? [])
    }

    func multiSearch(_ searches: [JSONObject]) throws(BackendError) -> [JSONObject] {
        do {
            let body = try send(.post, "/multi_search", body: JSONWriter.encode(["searches": .array(searches.map { .object($0) })]))
            return try JSONParser.parse(body)["results"]?.arrayValue?.compactMap(\.objectValue) ?? []
        } catch let error as BackendError {
            throw error
        } catch {
            throw .unavailable("\(error)")
        }
    }
}
