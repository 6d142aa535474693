import Foundation
import QuarryJSON

/// `engine-bench parse CATALOGUE BATCH [rounds]`: the cost of parsing `saveObjects` requests, in process.
///
/// The catalogue's records are joined into `saveObjects` requests of BATCH records each (`SaveRequests`), and
/// each request is parsed whole with the parser the daemon uses, `rounds` times. Through the daemon the parse
/// of a request runs before its write can start, so it is on the critical path of a stream of batches. Reports
/// the fastest and median round (MB/s, µs a record) and the resident memory the parsed requests hold.
func runParse(_ arguments: [String]) throws {
    let work = try SaveRequests(arguments: arguments, command: "parse")
    // What the parsed requests hold, measured before any round frees memory the next could reuse.
    let before = residentKilobytes()
    let heldKilobytes = try { () throws -> Int in
        let held = try work.requests.map { try JSONParser.parse($0) }
        return withExtendedLifetime(held) { residentKilobytes() - before }
    }()
    let clock = ContinuousClock()
    var times: [Double] = []
    for _ in 0..<work.rounds {
        times.append(try seconds(clock.measure {
            for request in work.requests { _ = try JSONParser.parse(request) }
        }))
    }
    times.sort()
    let median = times[times.count / 2]
    print(String(format: "parse: fastest %.0f MB/s, median %.0f MB/s (%.2f us a record); parsed, every request held %d MiB of RSS (%d bytes a record)",
                 Double(work.bytes) / times[0] / 1e6, Double(work.bytes) / median / 1e6, median * 1e6 / Double(work.records),
                 heldKilobytes / 1024, heldKilobytes * 1024 / work.records))
}
