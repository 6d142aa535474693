@testable import QuarryEngine
import QuarryJSON
import XCTest
import QuarrySearchContract
import QuarryText

/// Fast paths agree with the plain ones:
/// 1. Candidate collection has two ways to apply a further query word (scan its postings, or read the
///    surviving documents' tokens); both give the same documents with the same typo, exact and attribute
///    values, for prefixes, typos and typo-disabled attributes alike.
/// 2. The one-pass `ProximityScorer` equals the pairwise proximity of `DocumentMatcher`.
/// 3. When most documents are dead (a filter that leaves few), the survivors listed from the live ones are
///    the candidates without the dead ones, with the same values.
final class SearchCandidateStrategyTests: XCTestCase {
    func testBothStrategiesAgree() throws {
        var matched = 0
        try forEachQuery { query, index, segment, terms in
            let scan = Candidates.collect(segment: segment, dead: index.dead[0], words: terms, layout: index.layout, preferTokens: false)
            let scorer = ProximityScorer(segment: segment, words: terms)
            let tokens = Candidates.collect(segment: segment, dead: index.dead[0], words: terms, layout: index.layout,
                                            proximity: scorer, preferTokens: true)
            var matcher = DocumentMatcher(segment: segment, words: terms, layout: index.layout, allowedSlots: nil)
            if terms.count > 1, let stored = tokens.proximity {
                tokens.forEach(dead: index.dead[0]) {
                    XCTAssertEqual(Int(stored[$0]), matcher.evaluate($0).proximity, "stored proximity, \(query)")
                    return true
                }
            } else {
                XCTAssertTrue(terms.count == 1, "token strategy computes proximity on the way, \(query)")
            }
            XCTAssertEqual(scan.count, tokens.count, query)
            var a: [[Int]] = [], b: [[Int]] = []
            scan.forEach(dead: index.dead[0]) { a.append([$0, Int(scan.typos[$0]), Int(scan.exact[$0]), Int(scan.attribute[$0])]); return true }
            tokens.forEach(dead: index.dead[0]) { b.append([$0, Int(tokens.typos[$0]), Int(tokens.exact[$0]), Int(tokens.attribute[$0])]); return true }
            XCTAssertEqual(a, b, query)
            matched += a.count
        }
        XCTAssertGreaterThan(matched, 100)
    }

    func testOnePassProximityEqualsPairwise() throws {
        var compared = 0
        try forEachQuery { query, index, segment, terms in
            let scorer = ProximityScorer(segment: segment, words: terms)
            var matcher = DocumentMatcher(segment: segment, words: terms, layout: index.layout, allowedSlots: nil)
            let candidates = Candidates.collect(segment: segment, dead: index.dead[0], words: terms, layout: index.layout)
            candidates.forEach(dead: index.dead[0]) { ordinal in
                XCTAssertEqual(scorer.proximity(of: ordinal), matcher.evaluate(ordinal).proximity, "\(query) #\(ordinal)")
                compared += 1
                return true
            }
        }
        XCTAssertGreaterThan(compared, 100)
    }

    func testAFilterLeavingFewDocumentsListsTheSameCandidates() throws {
        var compared = 0
        try forEachQuery(["a", "gam", "alpha", "alpha beta", "gamma d", "better a", "omgea"]) { query, index, segment, terms in
            var filtered = Bitset(capacity: segment.count)
            for d in 0..<segment.count where d % 7 != 3 { filtered.insert(d) }
            XCTAssertGreaterThan(filtered.count, segment.count / 2)
            let all = Candidates.collect(segment: segment, dead: index.dead[0], words: terms, layout: index.layout)
            let few = Candidates.collect(segment: segment, dead: filtered, words: terms, layout: index.layout)
            XCTAssertNotNil(few.list, "listed, \(query)")
            var expected: [[Int]] = [], listed: [[Int]] = []
            all.forEach(dead: index.dead[0]) { d in
                if !filtered.contains(d) { expected.append([d, Int(all.typos[d]), Int(all.exact[d]), Int(all.attribute[d])]) }
                return true
            }
            few.forEach(dead: filtered) { listed.append([$0, Int(few.typos[$0]), Int(few.exact[$0]), Int(few.attribute[$0])]); return true }
            XCTAssertEqual(listed, expected, query)
            XCTAssertEqual(few.count, expected.count, query)
            XCTAssertTrue(expected.allSatisfy { few.contains($0[0], dead: filtered) })
            compared += expected.count
        }
        XCTAssertGreaterThan(compared, 50)
    }

    private func forEachQuery(_ queries: [String] = ["alpha beta", "alpah bet", "gamma d", "omega omgea a", "deltas gammon",
                                                     "better alpine omega", "better a", "alpha alpha", "gamma alpha beta"],
                              _ body: (String, SearchIndex, Segment, [MatchedTerms]) throws -> Void) throws {
        var settings = IndexSettings()
        settings.searchableAttributes = [SearchableAttribute(paths: ["name"]), SearchableAttribute(paths: ["tags"], ordered: false),
                                         SearchableAttribute(paths: ["code"])]
        settings.disableTypoToleranceOnAttributes = ["code"]
        let words = ["alpha", "alpine", "beta", "better", "gamma", "gammon", "delta", "deltas", "omega", "omgea"]
        var records: [(DocID, JSONObject)] = []
        for i in 0..<400 {
            let name = "\(words[i % 10]) \(words[(i * 7) % 10]) \(words[(i * 3 + 1) % 10])"
            let tags: [JSON] = [.string(words[(i * 11) % 10]), .string(words[(i + 5) % 10])]
            var record = JSONObject()
            record["name"] = .string(name)
            record["tags"] = .array(tags)
            record["code"] = .string(words[(i * 13) % 10])
            records.append((DocID(i), record))
        }
        let index = SearchIndex.build(settings: settings, records: records)
        let segment = try XCTUnwrap(index.segments.first)
        for query in queries {
            let parameters = try SearchParameters(json: ["query": .string(query)], settings: settings)
            let terms = QueryWords.parse(parameters).map { TypoMatcher(dictionary: segment.dictionary).match($0) }
            try body(query, index, segment, terms)
        }
    }
}
