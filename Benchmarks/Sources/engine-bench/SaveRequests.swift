import Foundation

/// What `engine-bench parse` and `frames` work on: `CATALOGUE BATCH [rounds]` from the command line, and the
/// catalogue's records (NDJSON from `catalogue.py`) joined into JSON-RPC `saveObjects` requests of BATCH
/// records each, as `peer_bench.py` sends them.
struct SaveRequests {
    let requests: [[UInt8]]
    let records: Int
    let rounds: Int
    /// The requests' bytes together.
    let bytes: Int

    /// Exits with the usage of `command` when the arguments are not right.
    init(arguments: [String], command: String) throws {
        guard arguments.count >= 4, let batch = Int(arguments[3]), batch > 0 else {
            print("usage: engine-bench \(command) CATALOGUE.ndjson BATCH [rounds]")
            exit(2)
        }
        rounds = arguments.count > 4 ? Int(arguments[4]) ?? 5 : 5
        let lines = try Data(contentsOf: URL(fileURLWithPath: arguments[2])).split(separator: UInt8(ascii: "\n"))
        var requests: [[UInt8]] = []
        for (number, start) in stride(from: 0, to: lines.count, by: batch).enumerated() {
            var request = Array(#"{"jsonrpc":"2.0","id":\#(number),"method":"saveObjects","params":{"index":"products","objects":["#.utf8)
            for (offset, line) in lines[start..<min(start + batch, lines.count)].enumerated() {
                if offset > 0 { request.append(UInt8(ascii: ",")) }
                request.append(contentsOf: line)
            }
            request.append(contentsOf: "]}}".utf8)
            requests.append(request)
        }
        self.requests = requests
        records = lines.count
        bytes = requests.reduce(0) { $0 + $1.count }
        print("\(records) records in \(requests.count) requests of \(batch), \(bytes / 1_048_576) MiB")
    }
}
