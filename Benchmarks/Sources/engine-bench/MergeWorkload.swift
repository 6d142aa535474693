import Foundation
import QuarryEngine
import QuarryJSON
import QuarrySearchContract

/// `engine-bench merge CATALOGUE PARTS SIZE [rounds]`: the cost of one merge, in process.
///
/// The catalogue's first PARTS × SIZE records (NDJSON from `catalogue.py`, `peer_bench.py`'s settings) are
/// indexed as PARTS segments of SIZE, as a stream of batches leaves them, then merged into one
/// (`compacted()`) `rounds` times. A merge of 8 segments of 1,000 is the first tier of the merge policy, of 8
/// of 8,000 the second (ARCHITECTURE.md, "Segments and merges"). Reports how long building the parts took, the
/// fastest and median wall time of the merge and the resident memory it added; through the daemon the same
/// work runs beside writes and searches.
func runMerge(_ arguments: [String]) throws {
    guard arguments.count >= 5, let parts = Int(arguments[3]), let size = Int(arguments[4]), parts > 0, size > 0 else {
        print("usage: engine-bench merge CATALOGUE.ndjson PARTS SIZE [rounds]")
        exit(2)
    }
    let rounds = arguments.count > 5 ? Int(arguments[5]) ?? 5 : 5
    var records = try CatalogueFile.records(arguments[2], limit: parts * size)
    guard records.count == parts * size else {
        print("the catalogue holds \(records.count) records, fewer than \(parts * size)")
        exit(2)
    }
    let settings = try CatalogueFile.settings()
    let batches = (0..<parts).map { p in (p * size..<(p + 1) * size).map { (DocID($0), records[$0]) } }
    let clock = ContinuousClock()
    let began = clock.now
    var index = SearchIndex.build(settings: settings, records: batches[0])
    for batch in batches.dropFirst() { index = index.updating(upserts: batch, deletions: []) }
    let built = seconds(clock.now - began)
    records = []
    print(String(format: "%d records in %d segments, built in %.1f ms (%.2f us a document)", parts * size,
                 index.memory().segments, built * 1000, built * 1e6 / Double(parts * size)))
    var times: [Double] = [], added: [Int] = []
    for _ in 0..<rounds {
        let before = residentKilobytes()
        var merged: SearchIndex?
        times.append(seconds(clock.measure { merged = index.compacted() }))
        added.append(residentKilobytes() - before)
        precondition(merged?.memory().segments == 1 && merged?.documentCount == parts * size, "one segment of every record")
    }
    times.sort()
    print(String(format: "merge of %d segments of %d: fastest %.1f ms, median %.1f ms (%.2f us a document); RSS +%d MiB",
                 parts, size, times[0] * 1000, times[times.count / 2] * 1000, times[times.count / 2] * 1e6 / Double(parts * size),
                 (added.max() ?? 0) / 1024))
}
