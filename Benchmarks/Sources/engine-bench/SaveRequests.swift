import Foundation

/// The catalogue's records (NDJSON from `catalogue.py`) joined into JSON-RPC `saveObjects` requests of
/// `batch` records each, as `peer_bench.py` sends them.
func saveRequests(catalogue path: String, batch: Int) throws -> (requests: [[UInt8]], records: Int) {
    let lines = try Data(contentsOf: URL(fileURLWithPath: path)).split(separator: UInt8(ascii: "\n"))
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
    return (requests, lines.count)
}
