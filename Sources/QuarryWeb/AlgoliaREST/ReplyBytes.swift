import QuarryAlgoliaREST
import QuarryJSON

/// A JSON-RPC reply as the server writes it (`{"jsonrpc":"2.0","id":N,"result":…}`, members in that order):
/// its id and its result's bytes read from the bytes themselves, so a search's answer is not parsed and
/// written again. Anything of another form is parsed whole.
enum ReplyBytes {
    private static let head = Array(#"{"jsonrpc":"2.0","id":"#.utf8)
    private static let resultKey = Array(#","result":"#.utf8)

    static func requestID(_ bytes: [UInt8]) -> Int64? {
        if let (id, _) = leadingID(bytes) { return id }
        guard case .int(let id)? = (try? JSONParser.parse(bytes))?["id"] else { return nil }
        return id
    }

    /// The result's bytes; nil for an error reply or one of another form.
    static func result(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        guard let (_, end) = leadingID(bytes), bytes.count > end + resultKey.count + 1,
              bytes[end..<(end + resultKey.count)].elementsEqual(resultKey), bytes.last == UInt8(ascii: "}") else { return nil }
        return bytes[(end + resultKey.count)..<(bytes.count - 1)]
    }

    static func outcome(_ bytes: [UInt8]) -> RPCOutcome {
        guard let reply = try? JSONParser.parse(bytes) else {
            return .failure(RPCFailure(code: -32603, message: "the server's reply could not be read", data: nil))
        }
        if let error = reply["error"] {
            return .failure(RPCFailure(
                code: error["code"]?.intValue ?? -32603, message: error["message"]?.stringValue ?? "", data: error["data"]))
        }
        return .success(reply["result"] ?? .null)
    }

    static func failure(id: Int64, code: Int, message: String) -> [UInt8] {
        JSONWriter.encode(["jsonrpc": "2.0", "id": .int(id), "error": ["code": JSON(code), "message": .string(message)]])
    }

    /// The id and where it ends, when the reply starts as the server writes one.
    private static func leadingID(_ bytes: [UInt8]) -> (Int64, Int)? {
        guard bytes.starts(with: head) else { return nil }
        var index = head.count
        var value: Int64 = 0
        while index < bytes.count, index - head.count < 18, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
            index += 1
        }
        return index > head.count ? (value, index) : nil
    }
}
