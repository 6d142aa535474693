@testable import QuarryEngine
import QuarryJSON
import XCTest
import QuarrySearchContract
import QuarryText

/// Short prefixes matched through `PrefixSets` (bitsets, with the word's attribute and exactness left to
/// the ranker) give exactly the page, keys and counts of the postings/token strategies, on random
/// queries over a random index, with and without deleted documents; `ProximityBound` never exceeds a
/// document's proximity, and ranking with it equals sorting every candidate.
final class SearchPrefixSetTests: XCTestCase {
    private let vocabulary = ["alpha", "alpine", "al", "a", "beta", "better", "be", "bet", "gamma", "gammon", "gum",
                              "delta", "deltas", "dot", "omega", "omgea", "oak", "cab", "cable", "camera", "cat", "tv", "t"]

    func testPrefixSetsHoldTheUnionOfTheirPostings() throws {
        let (_, segment) = try makeSegment(seed: 3)
        XCTAssertFalse(segment.prefixSets.entries.isEmpty)
        for (terms, entry) in segment.prefixSets.entries {
            var expected = Set<Int>()
            var lowest = UInt16.max
            var best: [Int: UInt16] = [:]
            for term in terms {
                segment.postings.forEach(term) { d, raw in
                    let score = raw & ~AttributeScore.typoDisabledFlag
                    expected.insert(d)
                    lowest = min(lowest, score)
                    best[d] = min(best[d] ?? .max, score)
                }
            }
            XCTAssertEqual(Set((0..<segment.count).filter { entry.contains($0) }), expected)
            XCTAssertEqual(entry.lowestScore, lowest)
            // Each document's floor is a true bound, and exact for documents outside the best rank.
            for (d, score) in best {
                XCTAssertLessThanOrEqual(entry.floor(d), score)
                if AttributeScore.rank(score) == AttributeScore.rank(lowest) { XCTAssertGreaterThanOrEqual(entry.levels[d], 2) }
                if score == lowest { XCTAssertEqual(entry.levels[d], 3) }
                if entry.levels[d] == 3 { XCTAssertEqual(score, lowest) }
            }
            XCTAssertTrue(best.contains { entry.levels[$0.key] < 2 && entry.floor($0.key) == $0.value } || entry.otherScore == .max
                          || best.allSatisfy { entry.levels[$0.key] >= 2 })
            // Every key is the whole range of a prefix of one to three bytes.
            let first = segment.dictionary.term(terms.lowerBound)
            let ranges = [1, 2, 3].filter { $0 <= first.count }.map { segment.dictionary.prefixRange(Array(first.prefix($0))) }
            XCTAssertTrue(ranges.contains(terms), "\(first)")
        }
    }

    func testPrefixSetsAreSavedAndReadBackInPlace() throws {
        let (index, segment) = try makeSegment(seed: 4)
        let directory = TemporaryDirectory()
        let path = directory.path + "/index.qsi"
        try index.write(to: path, generation: 1)
        let (loaded, _) = try SearchIndex.read(from: path, settings: index.settings)
        let read = try XCTUnwrap(loaded.segments.first).prefixSets
        XCTAssertEqual(Set(read.entries.keys), Set(segment.prefixSets.entries.keys))
        for (terms, entry) in segment.prefixSets.entries {
            let other = try XCTUnwrap(read.entries[terms])
            XCTAssertTrue(other.levels.words.isMapped)
            XCTAssertEqual(other.levels.words.array, entry.levels.words.array)
            XCTAssertEqual(other.lowestScore, entry.lowestScore)
            XCTAssertEqual(other.otherScore, entry.otherScore)
        }
        let page = try SearchParameters(json: ["query": "al be", "hitsPerPage": 0], settings: index.settings)
        let source = InMemoryRecords([])
        XCTAssertEqual(try loaded.search(page, records: source).nbHits, try index.search(page, records: source).nbHits)
    }

    func testDeferredPrefixRanksLikeTheGeneralPath() throws {
        var random = SplitMix(state: 11)
        var deferredQueries = 0, compared = 0
        for seed in [5, 6] as [UInt64] {
            let (index, segment) = try makeSegment(seed: seed)
            let layout = RankingLayout(ranking: index.settings.ranking)
            for deleting in [false, true] {
                var dead = Bitset(capacity: segment.count)
                if deleting { for d in 0..<segment.count where random.below(5) == 0 { dead.insert(d) } }
                for _ in 0..<120 {
                    let query = randomQuery(&random)
                    let parameters = try SearchParameters(json: ["query": .string(query)], settings: index.settings)
                    let terms = QueryWords.parse(parameters).map { TypoMatcher(dictionary: segment.dictionary).match($0) }
                    guard !terms.isEmpty else { continue }
                    let scorer = terms.count > 1 ? ProximityScorer(segment: segment, words: terms) : nil
                    let plain = Candidates.collect(segment: segment, dead: dead, words: terms, layout: index.layout, proximity: scorer)
                    let fast = Candidates.collect(segment: segment, dead: dead, words: terms, layout: index.layout, proximity: scorer,
                                                  deferrable: true)
                    if fast.deferred != nil { deferredQueries += 1 }
                    XCTAssertEqual(members(plain, dead), members(fast, dead), query)
                    XCTAssertEqual(plain.count, fast.count, query)
                    for wanted in [1, 5, 20, 1000] {
                        var a = SegmentRanker(segment: segment, index: 0, dead: dead, words: terms, layout: layout)
                        var b = SegmentRanker(segment: segment, index: 0, dead: dead, words: terms, layout: layout)
                        let expected = a.best(wanted, of: plain), actual = b.best(wanted, of: fast)
                        XCTAssertEqual(expected.map(\.ordinal), actual.map(\.ordinal), "\(query) top \(wanted)")
                        XCTAssertEqual(expected.map(\.key), actual.map(\.key), "\(query) top \(wanted)")
                        compared += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(deferredQueries, 100, "the prefix-set path must be exercised")
        XCTAssertGreaterThan(compared, 500)
    }

    func testProximityBoundNeverExceedsADocumentsProximity() throws {
        var random = SplitMix(state: 31)
        var raised = 0, checked = 0
        // Structured names (brand, two adjectives, a noun) leave some words never next to some letters.
        let (index, segment) = try makeSegment(seed: 8, structured: true)
        let layout = RankingLayout(ranking: index.settings.ranking)
        let dead = Bitset(capacity: segment.count)
        let brands = ["zeta", "yotta", "zetta"], letters = ["t", "c", "a", "b", "g", "ca", "te", "al", "z", "y"]
        for i in 0..<150 {
            let query = i % 3 == 0 ? randomQuery(&random)
                : "\(brands[random.below(brands.count)]) \(i % 3 == 1 ? "" : "alpha ")\(letters[random.below(letters.count)])"
            let parameters = try SearchParameters(json: ["query": .string(query)], settings: index.settings)
            let terms = QueryWords.parse(parameters).map { TypoMatcher(dictionary: segment.dictionary).match($0) }
            guard terms.count > 1 else { continue }
            let bound = ProximityBound.minimum(segment: segment, words: terms, budget: .max)
            if bound > terms.count - 1 { raised += 1 }
            let scorer = ProximityScorer(segment: segment, words: terms)
            let candidates = Candidates.collect(segment: segment, dead: dead, words: terms, layout: index.layout)
            var all: [(RankingKey, Int)] = []
            candidates.forEach(dead: dead) { d in
                let proximity = scorer.proximity(of: d)
                XCTAssertLessThanOrEqual(bound, proximity, "\(query) #\(d)")
                var values = RankingLayout.Values()
                (values.typos, values.exact, values.attribute) = (Int(candidates.typos[d]), Int(candidates.exact[d]), candidates.attribute[d])
                (values.proximity, values.ordinal) = (proximity, d)
                all.append((layout.key(values, sortRanks: segment.sortRanks), d))
                checked += 1
                return true
            }
            all.sort { $0.0 < $1.0 }
            for wanted in [1, 20] {
                var ranker = SegmentRanker(segment: segment, index: 0, dead: dead, words: terms, layout: layout)
                ranker.proximityBoundAfter = 0
                XCTAssertEqual(ranker.best(wanted, of: candidates).map(\.ordinal), all.prefix(wanted).map(\.1), query)
            }
        }
        XCTAssertGreaterThan(raised, 5, "some queries must get a bound above one per pair")
        XCTAssertGreaterThan(checked, 1000)
    }

    func testSearchAnswersAreUnchangedByPrefixSets() throws {
        let (index, segment) = try makeSegment(seed: 9)
        let bare = segment.with(prefixSets: .empty)
        let without = SearchIndex(settings: index.settings, layout: index.layout, order: index.order, segments: [bare], dead: index.dead)
        let records = EmptyRecords()
        var random = SplitMix(state: 21)
        for _ in 0..<60 {
            let query = randomQuery(&random)
            let parameters = try SearchParameters(json: ["query": .string(query), "hitsPerPage": 10], settings: index.settings)
            let a = try index.search(parameters, records: records), b = try without.search(parameters, records: records)
            XCTAssertEqual(a.nbHits, b.nbHits, query)
            XCTAssertEqual(a.hits.map { $0["objectID"] }, b.hits.map { $0["objectID"] }, query)
        }
    }

    private struct EmptyRecords: RecordSource {
        func record(_ id: DocID) -> JSONObject? { ["objectID": .string("\(id)")] }
    }

    private func members(_ candidates: Candidates, _ dead: Bitset) -> [Int] {
        var list: [Int] = []
        candidates.forEach(dead: dead) { list.append($0); return true }
        return list
    }

    private func randomQuery(_ random: inout SplitMix) -> String {
        // A lone prefix, as the first keystrokes of a query.
        if random.below(5) == 0 { return String(vocabulary[random.below(vocabulary.count)].prefix(1 + random.below(3))) }
        var words: [String] = []
        for _ in 0..<(1 + random.below(3)) { words.append(vocabulary[random.below(vocabulary.count)]) }
        // Usually end in a prefix of one to three letters, as typing does.
        if random.below(4) != 0 {
            let last = vocabulary[random.below(vocabulary.count)]
            words.append(String(last.prefix(1 + random.below(3))))
        }
        if random.below(6) == 0 { words[0] = String(words[0].reversed()) }
        return words.joined(separator: " ")
    }

    private func makeSegment(seed: UInt64, structured: Bool = false) throws -> (SearchIndex, Segment) {
        var settings = IndexSettings()
        settings.searchableAttributes = [SearchableAttribute(paths: ["name"]), SearchableAttribute(paths: ["tags"], ordered: false),
                                         SearchableAttribute(paths: ["code"])]
        settings.disableTypoToleranceOnAttributes = ["code"]
        settings.customRanking = [CustomRankingCriterion(attribute: "popularity", ascending: false)]
        var random = SplitMix(state: seed)
        var records: [(DocID, JSONObject)] = []
        for i in 0..<1500 {
            func phrase(_ n: Int) -> String { (0..<n).map { _ in vocabulary[random.below(vocabulary.count)] }.joined(separator: " ") }
            var record = JSONObject()
            if structured {
                let brand = ["zeta", "yotta", "zetta"][random.below(3)], adjectives = ["alpha", "beta", "gamma", "delta"]
                let noun = ["tv", "tent", "cab", "cable", "oak"][random.below(5)]
                record["name"] = .string("\(brand) \(adjectives[random.below(4)]) \(adjectives[random.below(4)]) \(noun)")
            } else {
                record["name"] = .string(phrase(2 + random.below(5)))
            }
            record["tags"] = .array([.string(phrase(1)), .string(phrase(2))])
            record["code"] = .string(phrase(1))
            record["popularity"] = .int(Int64(random.below(50)))
            records.append((DocID(i), record))
        }
        let built = SearchIndex.build(settings: settings, records: records)
        let first = try XCTUnwrap(built.segments.first)
        let segment = first.with(prefixSets: PrefixSets(dictionary: first.dictionary, postings: first.postings, documents: first.count,
                                                        minimumDocuments: 0, minimumPostings: 1))
        let index = SearchIndex(settings: settings, layout: built.layout, order: built.order, segments: [segment], dead: built.dead)
        return (index, segment)
    }

    private struct SplitMix {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }
}

private extension Segment {
    /// This segment's structures with other prefix sets.
    func with(prefixSets: PrefixSets) -> Segment {
        Segment(docIDs: docIDs, sortValues: sortValues, keyCount: keyCount, sortRanks: sortRanks, dictionary: dictionary,
                postings: postings, positions: positions, lookup: lookup, facets: facets, prefixSets: prefixSets)
    }
}
