/// Where the HTTP listener binds: `--http [HOST:]PORT` (protocol/websocket.md).
public struct WebAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `PORT` (loopback), `HOST:PORT` or `[IPv6]:PORT`; port 0 asks the system for a free one.
    public init?(parsing text: String) {
        var host = "127.0.0.1"
        var portText = Substring(text)
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            portText = rest.dropFirst()
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, let port = Int(portText), (0...65535).contains(port) else { return nil }
        self.init(host: host, port: port)
    }

    public var isLoopback: Bool { Self.isLoopbackName(host) }

    /// Names that reach this machine only. `localhost` and `*.localhost` resolve to loopback in
    /// browsers whatever DNS says, so they cannot be rebound.
    static func isLoopbackName(_ name: String) -> Bool {
        let lower = name.lowercased()
        if lower == "localhost" || lower.hasSuffix(".localhost") || lower == "::1" { return true }
        let parts = lower.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
