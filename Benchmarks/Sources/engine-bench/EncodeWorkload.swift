import Foundation
import QuarryJSON

/// `engine-bench encode CATALOGUE COUNT [rounds]`: the cost of encoding records as a write stores them.
///
/// A large write encodes each record it stores (`JSONWriter`) on the thread that compresses it, beside the
/// writer and the build, so its cost is CPU every record of a stream pays. Reports the fastest and median
/// round (µs a record, MB/s of JSON written).
func runEncode(_ arguments: [String]) throws {
    guard arguments.count >= 4, let count = Int(arguments[3]), count > 0 else {
        print("usage: engine-bench encode CATALOGUE.ndjson COUNT [rounds]")
        exit(2)
    }
    let rounds = arguments.count > 4 ? max(1, Int(arguments[4]) ?? 5) : 5
    let records = try CatalogueFile.records(arguments[2], limit: count)
    let bytes = records.reduce(0) { $0 + JSONWriter.encode(.object($1)).count }
    let clock = ContinuousClock()
    var times: [Double] = []
    for _ in 0..<rounds {
        times.append(seconds(clock.measure {
            for record in records { _ = JSONWriter.encode(.object(record)) }
        }))
    }
    times.sort()
    let median = times[times.count / 2]
    print(String(format: "encode %d records (%d bytes a record): fastest %.3f us a record, median %.3f us a record (%.0f MB/s)",
                 records.count, bytes / max(records.count, 1), times[0] * 1e6 / Double(records.count),
                 median * 1e6 / Double(records.count), Double(bytes) / median / 1e6))
}
