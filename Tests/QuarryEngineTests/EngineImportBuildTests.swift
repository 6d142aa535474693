import QuarryJSON
import QuarrySync
import XCTest
@testable import QuarryEngine
import QuarrySearchContract

/// How an import's search index is built (`EngineImportBuild`, `Engine.storeAll`): every way gives exactly
/// the answers of a rebuild from the store (hits and their order, nbHits, facet counts), for the primary and
/// each replica. The reference is the same engine after `setSettings([:])`, which rebuilds every view from
/// the stored rows as imports used to.
/// 1. into an empty index, built beside the import, with records repeated in the file (the last one wins),
///    a few and more than one segment's worth, and with a standard and a virtual replica;
/// 2. skipInvalid into an empty index skips, counts and explains as before;
/// 3. into a non-empty index, built beside the import as one more segment, with stored records replaced and
///    repeats; with settings that change a view, rebuilt;
/// 4. more repeated records than the build keeps aside falls back to a rebuild;
/// 5. a failing or cancelled import leaves the index as it was, and removes an index it created;
/// 6. a write's large batch, whose records the builds take and lay out before the store gives them docIDs,
///    into an empty and a non-empty index, with objectIDs repeated in the batch, and with stored records
///    replaced out of docID order (their ties rank otherwise: the segment is built again).
final class EngineImportBuildTests: EngineTestCase {
    private static let settings: JSONObject = [
        "searchableAttributes": ["name", "brand", "description"],
        "attributesForFaceting": ["brand", "categories.lvl0", "tags", "filterOnly(price)"],
        "customRanking": ["desc(popularity)"],
    ]
    private static let words = [
        "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "theta", "kappa", "lambda", "omega", "sigma", "tau",
        "phone", "phones", "camera", "cable", "charger", "coffee", "cup", "desk", "lamp", "laptop", "light", "lime",
    ]
    private static let brands = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark"]

    /// A record whose fields depend on `seed` only: few distinct popularities, so ties are common.
    private static func line(_ objectID: String, seed: Int) -> String {
        var state = UInt64(truncatingIfNeeded: seed &* 2_654_435_761 &+ 12345)
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let name = (0..<(1 + next(3))).map { _ in words[next(words.count)] }.joined(separator: " ")
        let description = (0..<(3 + next(6))).map { _ in words[next(words.count)] }.joined(separator: " ")
        let tags = (0..<next(3)).map { _ in "\"\(words[next(words.count)])\"" }.joined(separator: ",")
        return #"{"objectID":"\#(objectID)","name":"\#(name)","description":"\#(description)","#
            + #""brand":"\#(brands[next(brands.count)])","categories":{"lvl0":"c\#(next(4))"},"tags":[\#(tags)],"#
            + #""price":\#(next(100)),"popularity":\#(next(5))}"#
    }

    private static let queries: [JSONObject] = [
        [:], ["query": "alpha"], ["query": "ph"], ["query": "camera cable"], ["query": "lamb"], ["query": "cofee"],
        ["query": "gamma", "filters": "(brand:Acme OR brand:Hooli) AND price < 30"], ["query": "l", "facetFilters": [["tags:lime"]]],
        ["query": "", "numericFilters": ["price>=50"]], ["query": "omega sigma tau"],
    ]

    /// Every answer of `queries` on `index`, with all hits and every facet, without the timing.
    private func answers(_ engine: Engine, _ index: String) throws -> [JSON] {
        try Self.queries.map { query in
            var parameters = query
            parameters["hitsPerPage"] = 1000
            parameters["facets"] = ["*"]
            guard case .object(var answer) = try engine.search(index: index, parameters: parameters) else { return .null }
            answer["processingTimeMS"] = nil
            return .object(answer)
        }
    }

    /// Asserts each of `indices` answers as it does once rebuilt from the store.
    private func assertAnswersAsRebuilt(
        _ engine: Engine, _ indices: [String], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let built = try indices.map { try answers(engine, $0) }
        _ = try engine.setSettings([:], index: indices[0])
        for (index, answers) in zip(indices, built) {
            let rebuilt = try self.answers(engine, index)
            XCTAssertEqual(answers.count, rebuilt.count, file: file, line: line)
            for (query, (got, expected)) in zip(Self.queries, zip(answers, rebuilt)) {
                XCTAssertEqual(got, expected, "\(index) \(query)", file: file, line: line)
            }
        }
    }

    private func file(_ name: String, _ lines: [String]) -> String {
        directory.file(name, contents: lines.joined(separator: "\n") + "\n")
    }

    func testAnImportIntoAnEmptyIndexAnswersAsARebuild() throws {
        let engine = try Engine(directory: directory.path + "/data", log: { _ in })
        // 3,000 records, then 40 of them again and 700 more of them again: one segment with a few repeats
        // folded in, then enough repeats that they stay a segment of their own.
        var lines = (0..<3000).map { Self.line("p\($0)", seed: $0) }
        lines += (0..<40).map { Self.line("p\($0 * 7)", seed: 10_000 + $0) }
        lines += (0..<700).map { Self.line("p\(2999 - $0 * 3)", seed: 20_000 + $0) }
        var settings = Self.settings
        settings["replicas"] = ["by_price", "virtual(by_price_relevant)"]
        let receipt = try engine.importRecords(index: "products", from: file("p.ndjson", lines), settings: settings)
        XCTAssertEqual(receipt.imported, 3740)
        _ = try engine.setSettings(["customRanking": ["asc(price)"]], index: "by_price")
        _ = try engine.setSettings(["customRanking": ["asc(price)"]], index: "by_price_relevant")
        XCTAssertEqual(try engine.search(index: "products", parameters: [:]).nbHits, 3000)

        // The replicas' settings are set now, so a second engine's first import builds them with their own.
        let second = try Engine(directory: directory.path + "/second", log: { _ in })
        _ = try second.setSettings(settings, index: "products")
        _ = try second.setSettings(["customRanking": ["asc(price)"]], index: "by_price")
        _ = try second.setSettings(["customRanking": ["asc(price)"]], index: "by_price_relevant")
        XCTAssertEqual(try second.importRecords(index: "products", from: file("p.ndjson", lines)).imported, 3740)
        for index in ["products", "by_price", "by_price_relevant"] {
            XCTAssertEqual(try answers(second, index), try answers(engine, index), index)
        }
        try assertAnswersAsRebuilt(second, ["products", "by_price", "by_price_relevant"])
    }

    func testAnImportWithRepeatsOnlyAndFewRecordsAnswersAsARebuild() throws {
        let engine = try Engine(directory: directory.path, log: { _ in })
        let lines = (0..<30).map { Self.line("p\($0 % 7)", seed: $0) }
        XCTAssertEqual(try engine.importRecords(index: "i", from: file("r.ndjson", lines), settings: Self.settings).imported, 30)
        XCTAssertEqual(try engine.search(index: "i", parameters: [:]).nbHits, 7)
        let stored = try engine.getObjects(["p3"], index: "i")
        XCTAssertEqual(stored.first??["popularity"], try JSONParser.parse(Self.line("p3", seed: 24))["popularity"],
                       "the last record with an objectID wins")
        try assertAnswersAsRebuilt(engine, ["i"])
    }

    func testSkipInvalidIntoAnEmptyIndex() throws {
        let engine = try Engine(directory: directory.path, log: { _ in })
        var lines = (0..<600).map { Self.line("p\($0)", seed: $0) }
        lines.insert(#"{"objectID":true}"#, at: 300)
        lines.insert("{broken", at: 10)
        lines.append(Self.line("p5", seed: 99))
        let receipt = try engine.importRecords(
            index: "i", from: file("s.ndjson", lines), settings: Self.settings, skipInvalid: true)
        XCTAssertEqual(receipt.imported, 601)
        XCTAssertEqual(receipt.skipped, 2)
        XCTAssertEqual(receipt.skippedReasons.count, 2)
        XCTAssertTrue(receipt.skippedReasons[0].hasPrefix("line 11,"), receipt.skippedReasons[0])
        XCTAssertTrue(receipt.skippedReasons[1].hasPrefix("line 302:"), receipt.skippedReasons[1])
        XCTAssertEqual(try engine.search(index: "i", parameters: [:]).nbHits, 600)
        try assertAnswersAsRebuilt(engine, ["i"])
    }

    func testAnImportIntoANonEmptyIndexAnswersAsARebuild() throws {
        let engine = try Engine(directory: directory.path, log: { _ in })
        var settings = Self.settings
        settings["replicas"] = ["by_price"]
        _ = try engine.importRecords(
            index: "i", from: file("a.ndjson", (0..<2500).map { Self.line("p\($0)", seed: $0) }), settings: settings)
        _ = try engine.setSettings(["customRanking": ["asc(price)"]], index: "by_price")
        // A small import (its segment is merged into the last one): new records, replaced ones, and repeats.
        let small = (2400..<2700).map { Self.line("p\($0)", seed: 50_000 + $0) } + [Self.line("p2450", seed: 7)]
        XCTAssertEqual(try engine.importRecords(index: "i", from: file("b.ndjson", small)).imported, 301)
        XCTAssertEqual(try engine.search(index: "i", parameters: [:]).nbHits, 2700)
        try assertAnswersAsRebuilt(engine, ["i", "by_price"])
        // With settings (every view is rebuilt).
        let more = (0..<100).map { Self.line("p\($0 * 11)", seed: 70_000 + $0) }
        _ = try engine.importRecords(index: "i", from: file("c.ndjson", more), settings: ["customRanking": ["asc(price)"]])
        try assertAnswersAsRebuilt(engine, ["i", "by_price"])
    }

    func testALargeImportIntoANonEmptyIndexAnswersAsARebuild() throws {
        let engine = try Engine(directory: directory.path, log: { _ in })
        var settings = Self.settings
        settings["replicas"] = ["by_price"]
        let first = (0..<3000).map { Self.line("p\($0 * 3)", seed: $0) }
        _ = try engine.importRecords(index: "i", from: file("a.ndjson", first), settings: settings)
        _ = try engine.setSettings(["customRanking": ["asc(price)"]], index: "by_price")
        _ = try engine.deleteObjects(["p9", "p30"], index: "i")
        // 25,000 records: 2,998 replace stored ones (in the order of the file, not of their docIDs), the rest
        // are new (more than a merge takes at once, so a segment of their own), and 500 are repeated.
        var lines = (0..<25_000).map { Self.line("p\(($0 * 7) % 25_000)", seed: 100_000 + $0) }
        lines += (0..<500).map { Self.line("p\($0 * 41)", seed: 200_000 + $0) }
        XCTAssertEqual(try engine.importRecords(index: "i", from: file("b.ndjson", lines)).imported, 25_500)
        XCTAssertEqual(try engine.search(index: "i", parameters: [:]).nbHits, 25_000)
        try assertAnswersAsRebuilt(engine, ["i", "by_price"])
    }

    func testLargeWriteBatchesAnswerAsARebuild() throws {
        let engine = try Engine(directory: directory.path, log: { _ in })
        var settings = Self.settings
        settings["replicas"] = ["by_price", "virtual(by_price_relevant)"]
        _ = try engine.setSettings(settings, index: "i")
        _ = try engine.setSettings(["customRanking": ["asc(price)"]], index: "by_price")
        _ = try engine.setSettings(["customRanking": ["asc(price)"]], index: "by_price_relevant")
        func objects(_ lines: [String]) throws -> [JSONObject] {
            try lines.map { line in
                guard case .object(let object) = try JSONParser.parse(Array(line.utf8)) else { throw BackendError.storage(line) }
                return object
            }
        }
        // Into the empty index: p5 twice (the second, later in the batch, wins) and p7 three times.
        var first = (0..<600).map { Self.line("p\($0)", seed: $0) }
        first.insert(Self.line("p5", seed: 1_001), at: 300)
        first += [Self.line("p7", seed: 1_002), Self.line("p7", seed: 1_003)]
        XCTAssertGreaterThanOrEqual(first.count, Engine.batchBuildThreshold)
        XCTAssertEqual(try engine.saveObjects(try objects(first), index: "i").objectIDs.count, 603)
        XCTAssertEqual(try engine.search(index: "i", parameters: [:]).nbHits, 600)
        XCTAssertEqual(try engine.getObjects(["p5", "p7"], index: "i"),
                       try objects([Self.line("p5", seed: 1_001), Self.line("p7", seed: 1_003)]))
        try assertAnswersAsRebuilt(engine, ["i", "by_price", "by_price_relevant"])
        // Into the non-empty index: 200 stored records replaced (in reverse docID order), 200 new, a repeat.
        var second = (100..<300).reversed().map { Self.line("p\($0)", seed: 5_000 + $0) }
        second += (600..<800).map { Self.line("p\($0)", seed: 5_000 + $0) }
        second.append(Self.line("p150", seed: 9_999))
        _ = try engine.saveObjects(try objects(second), index: "i")
        XCTAssertEqual(try engine.search(index: "i", parameters: [:]).nbHits, 800)
        XCTAssertEqual(try engine.getObjects(["p150"], index: "i"), try objects([Self.line("p150", seed: 9_999)]))
        try assertAnswersAsRebuilt(engine, ["i", "by_price", "by_price_relevant"])
        // New records only, on top of the stored ones.
        _ = try engine.saveObjects(try objects((800..<1100).map { Self.line("p\($0)", seed: 7_000 + $0) }), index: "i")
        XCTAssertEqual(try engine.search(index: "i", parameters: [:]).nbHits, 1100)
        try assertAnswersAsRebuilt(engine, ["i", "by_price", "by_price_relevant"])
    }

    func testManyRepeatsRebuildFromTheStore() throws {
        let engine = try Engine(directory: directory.path, log: { _ in })
        let count = EngineImportBuild.repeatLimit + 1
        let many = (0..<count).map { #"{"objectID":"\#($0)","name":"\#(Self.words[$0 % Self.words.count]) \#($0)"}"# }
        let repeats = many + many.reversed()
        XCTAssertEqual(try engine.importRecords(index: "fresh", from: file("c.ndjson", repeats), settings: Self.settings).imported, 2 * count)
        XCTAssertEqual(try engine.search(index: "fresh", parameters: [:]).nbHits, count)
        try assertAnswersAsRebuilt(engine, ["fresh"])
    }

    func testAFailedOrCancelledImportLeavesTheIndexAsItWas() throws {
        let engine = try Engine(directory: directory.path, log: { _ in })
        let good = (0..<20_500).map { #"{"objectID":"\#($0)","name":"n\#($0)"}"# }

        // An empty index with settings and a replica: the import would build beside it.
        var settings = Self.settings
        settings["replicas"] = ["by_price"]
        let created = try engine.setSettings(settings, index: "empty")
        XCTAssertThrowsError(try engine.importRecords(index: "empty", from: file("bad.ndjson", good + ["{nope"]))) {
            XCTAssertEqual(($0 as? BackendError).map { "\($0)" }?.contains("line 20501"), true, "\($0)")
        }
        let cancelled = Locked(false)
        XCTAssertThrowsError(try engine.importRecords(
            index: "empty", from: file("good.ndjson", good),
            progress: { update in if update.records >= 10_000 { cancelled.withLock { $0 = true } } },
            isCancelled: { cancelled.withLock { $0 } })) {
            XCTAssertEqual($0 as? BackendError, .cancelled)
        }
        XCTAssertEqual(try engine.search(index: "empty", parameters: [:]).nbHits, 0)
        XCTAssertEqual(try engine.search(index: "by_price", parameters: [:]).nbHits, 0)
        XCTAssertEqual(try engine.settings(index: "empty")["replicas"], ["by_price"])
        XCTAssertEqual(try engine.saveObjects([], index: "empty").taskID, created.taskID + 1, "nothing was committed")

        // A new index goes again.
        XCTAssertThrowsError(try engine.importRecords(index: "new", from: file("bad.ndjson", good + ["{nope"])))
        cancelled.withLock { $0 = false }
        XCTAssertThrowsError(try engine.importRecords(
            index: "new", from: file("good.ndjson", good),
            progress: { update in if update.records >= 10_000 { cancelled.withLock { $0 = true } } },
            isCancelled: { cancelled.withLock { $0 } }))
        XCTAssertEqual(engine.listIndices().map(\.name).sorted(), ["by_price", "empty"])

        // And the index imports fine afterwards.
        XCTAssertEqual(try engine.importRecords(index: "empty", from: file("good.ndjson", good)).imported, good.count)
        XCTAssertEqual(try engine.search(index: "by_price", parameters: [:]).nbHits, good.count)
        try assertAnswersAsRebuilt(engine, ["empty", "by_price"])
    }
}
