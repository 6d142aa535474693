import Foundation
import QuarryEngine
import QuarryJSON
import QuarrySearchContract

/// `engine-bench realistic CATALOGUE KEYSTROKES [passes]`: the engine alone on `peer_bench.py`'s workload.
///
/// The catalogue (NDJSON from `catalogue.py`) is indexed in process with the settings `peer_bench.py` gives
/// the daemon, then each keystroke (one per line) is searched as the daemon would search it: top 20,
/// default highlighting, exact counts of 3 facets, typo tolerance off, and the response rendered to JSON.
/// The difference from the daemon's figures is what the daemon and the socket add.
func runRealistic(_ arguments: [String]) throws {
    guard arguments.count >= 4 else {
        print("usage: engine-bench realistic CATALOGUE.ndjson KEYSTROKES.txt [passes]")
        exit(2)
    }
    let passes = arguments.count > 4 ? Int(arguments[4]) ?? 2 : 2
    let data = try Data(contentsOf: URL(fileURLWithPath: arguments[2]))
    var records: [JSONObject] = []
    var start = data.startIndex
    while start < data.endIndex {
        let end = data[start...].firstIndex(of: UInt8(ascii: "\n")) ?? data.endIndex
        if end > start, case .object(let record) = try JSONParser.parse(data[start..<end]) { records.append(record) }
        start = data.index(after: end)
    }
    let keystrokes = try String(contentsOfFile: arguments[3], encoding: .utf8).split(separator: "\n").map(String.init)
    var settings = IndexSettings()
    try settings.merge([
        "searchableAttributes": ["name", "brand", "description"],
        "attributesForFaceting": ["brand", "categories.lvl0", "tags"],
        "customRanking": ["desc(popularity)"],
    ])
    let clock = ContinuousClock()
    var index: SearchIndex?
    let buildTime = clock.measure {
        index = SearchIndex.build(settings: settings, records: records.enumerated().map { (DocID($0.offset), $0.element) })
    }
    guard let index else { return }
    print(String(format: "engine alone: %d records indexed in %.2f s (%.0f docs/s, records already parsed)",
                 records.count, seconds(buildTime), Double(records.count) / seconds(buildTime)))
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
