import Foundation
import QuarryEngine
import QuarryJSON
import QuarrySearchContract

/// `engine-bench build CATALOGUE SIZE COUNT`: the cost of building COUNT segments of SIZE records each, as
/// writes of SIZE records build theirs (in the heap; Benchmarks/README.md says how to read it).
func runBuild(_ arguments: [String]) throws {
    guard arguments.count >= 5, let size = Int(arguments[3]), let count = Int(arguments[4]), size > 0, count > 0 else {
        print("usage: engine-bench build CATALOGUE.ndjson SIZE COUNT")
        exit(2)
    }
    let records = try CatalogueFile.records(arguments[2], limit: size * count)
    guard records.count == size * count else {
        print("the catalogue holds \(records.count) records, fewer than \(size * count)")
        exit(2)
    }
    let settings = try CatalogueFile.settings()
    let clock = ContinuousClock()
    var times: [Double] = []
    let cpu0 = threadCPUSeconds()
    for c in 0..<count {
        let batch = (c * size..<(c + 1) * size).map { (DocID($0), records[$0]) }
        times.append(seconds(clock.measure { _ = SearchIndex.build(settings: settings, records: batch) }))
    }
    let cpu = threadCPUSeconds() - cpu0
    times.sort()
    print(String(format: "%d segments of %d: median %.2f ms (%.2f us a document), this thread's CPU %.2f us a document",
                 count, size, times[count / 2] * 1000, times[count / 2] * 1e6 / Double(size), cpu * 1e6 / Double(size * count)))
}
