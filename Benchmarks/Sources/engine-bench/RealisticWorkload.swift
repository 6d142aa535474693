import Foundation
import QuarryEngine
import QuarryJSON
import QuarrySearchContract

/// `engine-bench realistic CATALOGUE KEYSTROKES [passes] [segments]`: the engine alone on `peer_bench.py`'s
/// workload.
///
/// The catalogue (NDJSON from `catalogue.py`) is indexed in process with the settings `peer_bench.py` gives
/// the daemon, then each keystroke (one per line) is searched as the daemon would search it: top 20,
/// default highlighting, exact counts of 3 facets, typo tolerance off, and the response rendered to JSON.
/// The difference from the daemon's figures is what the daemon and the socket add. `segments` (sizes,
/// comma-separated, e.g. `64000,8000,1000`) splits the catalogue's last records into segments of those
/// sizes, written after the rest as writes add them: the index a stream of batches leaves searches read.
func runRealistic(_ arguments: [String]) throws {
    guard arguments.count >= 4 else {
        print("usage: engine-bench realistic CATALOGUE.ndjson KEYSTROKES.txt [passes] [segment sizes, comma-separated]")
        exit(2)
    }
    let passes = arguments.count > 4 ? Int(arguments[4]) ?? 2 : 2
    let records = try CatalogueFile.records(arguments[2])
    let keystrokes = try String(contentsOfFile: arguments[3], encoding: .utf8).split(separator: "\n").map(String.init)
    let settings = try CatalogueFile.settings()
    let clock = ContinuousClock()
    var index: SearchIndex?
    let sizes = arguments.count > 5 ? arguments[5].split(separator: ",").map { Int($0) } : []
    let tail = sizes.compactMap { $0 }
    let tailCount = tail.reduce(0, +)
    guard tail.count == sizes.count, tail.allSatisfy({ $0 > 0 }), tailCount < records.count else {
        print("segment sizes must be positive integers, separated by commas, holding fewer records than the catalogue")
        exit(2)
    }
    let baseCount = records.count - tailCount
    let buildTime = clock.measure {
        var built = SearchIndex.build(settings: settings, records: records[..<baseCount].enumerated().map { (DocID($0.offset), $0.element) })
        var at = baseCount
        for size in tail {
            built = built.updating(upserts: (at..<(at + size)).map { (DocID($0), records[$0]) }, deletions: [])
            at += size
        }
        index = built
    }
    guard let index else { return }
    print(String(format: "engine alone: %d records indexed in %.2f s (%.0f docs/s, records already parsed), %d segments",
                 records.count, seconds(buildTime), Double(records.count) / seconds(buildTime), tail.count + 1))
    let source = ArrayRecords(records: records)
    var latencies: [Double] = []
    for _ in 0..<passes {
        for text in keystrokes {
            let parameters = try SearchParameters(json: [
                "query": .string(text), "hitsPerPage": 20, "facets": ["brand", "categories.lvl0", "tags"],
                "maxValuesPerFacet": 100, "typoTolerance": false,
            ], settings: settings)
            let elapsed = try clock.measure { _ = JSONWriter.encode(try index.search(parameters, records: source).json(in: .utf16)) }
            latencies.append(seconds(elapsed) * 1000)
        }
    }
    latencies.sort()
    print(String(format: "engine alone: keystroke p50 %.2f ms, p99 %.2f ms over %d searches", percentile(0.5, latencies),
                 percentile(0.99, latencies), latencies.count))
}
