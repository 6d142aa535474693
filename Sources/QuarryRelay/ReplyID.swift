/// The `id` of a reply as the daemon writes it (`{"jsonrpc":"2.0","id":…,"result"|"error":…}`),
/// read from its first bytes so that relaying a large result costs no parse.
/// nil for anything else (a notification, a batch), which the caller parses in full.
enum ReplyID {
    private static let prefix = Array(#"{"jsonrpc":"2.0","id":"#.utf8)

    /// The id's JSON text (`7`, `"a"`), exactly as written.
    static func peek(_ payload: [UInt8]) -> String? {
        guard payload.count > prefix.count, payload.starts(with: prefix) else { return nil }
        var i = prefix.count
        let start = i
        if payload[i] == UInt8(ascii: "\"") {
            i += 1
            while i < payload.count, payload[i] != UInt8(ascii: "\"") {
                i += payload[i] == UInt8(ascii: "\\") ? 2 : 1
            }
            i += 1
        } else {
            while i < payload.count, payload[i] == UInt8(ascii: "-") || (48...57).contains(payload[i]) { i += 1 }
        }
        guard i > start, i < payload.count, payload[i] == UInt8(ascii: ",") else { return nil }
        let rest = payload[(i + 1)...]
        guard rest.starts(with: Array(#""result""#.utf8)) || rest.starts(with: Array(#""error""#.utf8)) else { return nil }
        return String(decoding: payload[start..<i], as: UTF8.self)
    }
}
