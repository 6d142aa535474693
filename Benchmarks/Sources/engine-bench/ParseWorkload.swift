import Foundation
import QuarryJSON

/// `engine-bench parse CATALOGUE BATCH [rounds]`: the cost of parsing `saveObjects` requests, in process.
///
/// The catalogue's records are joined into `saveObjects` requests of BATCH records each (`saveRequests`), and
/// each request is parsed whole with the parser the daemon uses, `rounds` times. Through the daemon the parse
/// of a request runs before its write can start, so it is on the critical path of a stream of batches. Reports the fastest and median round (MB/s, µs a record)
/// and the resident memory the parsed requests hold.
func runParse(_ arguments: [String]) throws {
    guard arguments.count >= 4, let batch = Int(arguments[3]), batch > 0 else {
        print("usage: engine-bench parse CATALOGUE.ndjson BATCH [rounds]")
        exit(2)
    }
    let rounds = arguments.count > 4 ? Int(arguments[4]) ?? 5 : 5
    let (requests, records) = try saveRequests(catalogue: arguments[2], batch: batch)
    let bytes = requests.reduce(0) { $0 + $1.count }
    print("\(records) records in \(requests.count) requests of \(batch), \(bytes / 1_048_576) MiB")
    // What the parsed requests hold, measured before any round frees memory the next could reuse.
    let before = residentKilobytes()
    let heldKilobytes = try { () throws -> Int in
        let held = try requests.map { try JSONParser.parse($0) }
        return withExtendedLifetime(held) { residentKilobytes() - before }
    }()
    let clock = ContinuousClock()
    var times: [Double] = []
    for _ in 0..<rounds {
        times.append(try seconds(clock.measure {
            for request in requests { _ = try JSONParser.parse(request) }
        }))
    }
    times.sort()
    let median = times[times.count / 2]
    print(String(format: "parse: fastest %.0f MB/s, median %.0f MB/s (%.2f us a record); parsed, every request held %d MiB of RSS (%d bytes a record)",
                 Double(bytes) / times[0] / 1e6, Double(bytes) / median / 1e6, median * 1e6 / Double(records),
                 heldKilobytes / 1024, heldKilobytes * 1024 / records))
}
