/// One configured node: where its API listens.
public struct TypesenseNode: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var scheme: String

    public init(host: String, port: Int, scheme: String = "http") {
        self.host = host
        self.port = port
        self.scheme = scheme
    }

    /// `host:port`, `http://host:port` or `https://host:port`; nil for anything else.
    public init?(_ text: String) {
        var rest = Substring(text)
        var scheme = "http"
        for prefix in ["http://", "https://"] where rest.hasPrefix(prefix) {
            scheme = String(prefix.dropLast(3))
            rest = rest.dropFirst(prefix.count)
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]),
              (1...65535).contains(port), colon > rest.startIndex
        else { return nil }
        self.init(host: String(rest[..<colon]), port: port, scheme: scheme)
    }

    /// A comma-separated list (`QUARRY_TYPESENSE_NODES`); nil if any entry is malformed or none is given.
    public static func list(_ text: String) -> [TypesenseNode]? {
        let entries = text.split(separator: ",").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
        let nodes = entries.compactMap { TypesenseNode(String($0)) }
        return nodes.isEmpty || nodes.count != entries.count ? nil : nodes
    }

    public var baseURL: String { "\(scheme)://\(host):\(port)" }
    public var description: String { "\(host):\(port)" }
}

private extension Substring {
    func trimmingSpaces() -> Substring {
        var s = self
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return s
    }
}
