/// Who may talk to the HTTP listener: the Host, Origin and key rules of protocol/keys.md, as pure
/// decisions on header values so they are tested without sockets.
public struct RequestGuard: Sendable {
    /// Host names accepted besides the loopback ones (`--http-allow-host`), lowercased, without port.
    public var allowedHosts: Set<String>
    /// Origins accepted besides the page's own (`--http-allow-origin`); they also get CORS headers.
    public var allowedOrigins: Set<String>
    public var keys: WebKeys

    public init(keys: WebKeys, allowedHosts: Set<String> = [], allowedOrigins: Set<String> = []) {
        self.keys = keys
        self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
        self.allowedOrigins = Set(allowedOrigins.map(Self.normalizedOrigin))
    }

    /// The subprotocol a WebSocket client names to speak JSON-RPC; the server answers with it.
    public static let jsonRPCSubprotocol = "quarry.jsonrpc"
    /// The prefix of the subprotocol that carries a key: browsers cannot set `Authorization` on a WebSocket.
    public static let keySubprotocolPrefix = "quarry.key."

    public enum Refusal: Error, Sendable, Equatable {
        /// 403: the Host header names neither a loopback name nor a configured host (DNS rebinding).
        case foreignHost
        /// 403: the Origin header is neither the page's own nor a configured one (cross-site WebSocket hijacking).
        case foreignOrigin
        /// 401: no key, or one that is neither of the two.
        case missingKey, wrongKey

        public var status: Int {
            switch self {
            case .foreignHost, .foreignOrigin: 403
            case .missingKey, .wrongKey: 401
            }
        }

        public var message: String {
            switch self {
            case .foreignHost: "forbidden: the Host header names neither a loopback name nor one given with --http-allow-host"
            case .foreignOrigin: "forbidden: the Origin is neither this page's nor one given with --http-allow-origin"
            case .missingKey: "unauthorized: send a key (Authorization: Bearer KEY, or the subprotocol quarry.key.KEY)"
            case .wrongKey: "unauthorized: that key is neither of <data-dir>/keys.json's"
            }
        }
    }

    /// Every request: its Host must be this machine's or a configured name.
    public func checkHost(_ host: String?) -> Refusal? {
        guard let host, let name = Self.hostName(host) else { return .foreignHost }
        return WebAddress.isLoopbackName(name) || allowedHosts.contains(name) ? nil : .foreignHost
    }

    /// A WebSocket upgrade: Host, then Origin, then the key. No Origin means no browser (a script,
    /// an editor), which cannot be driven by a foreign page; it still needs a key.
    public func checkUpgrade(host: String?, origin: String?, authorization: String?, subprotocols: [String])
        -> Result<WebAccess, Refusal>
    {
        if let refusal = checkHost(host) { return .failure(refusal) }
        if let origin, !isAllowedOrigin(origin, host: host ?? "") { return .failure(.foreignOrigin) }
        guard let key = Self.presentedKey(authorization: authorization, subprotocols: subprotocols) else {
            return .failure(.missingKey)
        }
        guard let access = keys.access(for: key) else { return .failure(.wrongKey) }
        return .success(access)
    }

    /// The page's own origin (same scheme, host and port as the request) or a configured one.
    public func isAllowedOrigin(_ origin: String, host: String) -> Bool {
        let normalized = Self.normalizedOrigin(origin)
        return normalized == "http://" + host.lowercased() || allowedOrigins.contains(normalized)
    }

    /// The CORS header value for a request from `origin`: only configured origins get one.
    public func corsOrigin(for origin: String?) -> String? {
        guard let origin, allowedOrigins.contains(Self.normalizedOrigin(origin)) else { return nil }
        return origin
    }

    /// `Authorization: Bearer KEY`, else a `quarry.key.KEY` subprotocol.
    public static func presentedKey(authorization: String?, subprotocols: [String]) -> String? {
        if let authorization {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" {
                return parts[1].trimmingCharacters(in: " \t")
            }
        }
        for offered in subprotocols where offered.hasPrefix(keySubprotocolPrefix) {
            return String(offered.dropFirst(keySubprotocolPrefix.count))
        }
        return nil
    }

    /// The comma-separated values of `Sec-WebSocket-Protocol`.
    public static func subprotocols(_ header: String?) -> [String] {
        guard let header else { return [] }
        return header.split(separator: ",").map { $0.trimmingCharacters(in: " \t") }.filter { !$0.isEmpty }
    }

    /// The name part of a Host header value (`name`, `name:port`, `[v6]:port`), lowercased; nil if malformed.
    static func hostName(_ host: String) -> String? {
        let lower = host.lowercased()
        if lower.hasPrefix("[") {
            guard let close = lower.firstIndex(of: "]") else { return nil }
            let rest = lower[lower.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && Int(rest.dropFirst()) != nil) else { return nil }
            return String(lower[lower.index(after: lower.startIndex)..<close])
        }
        let parts = lower.split(separator: ":", omittingEmptySubsequences: false)
        guard !parts[0].isEmpty, parts.count <= 2 else { return nil }
        if parts.count == 2, Int(parts[1]) == nil { return nil }
        return String(parts[0])
    }

    static func normalizedOrigin(_ origin: String) -> String {
        var text = origin.lowercased()
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        var view = self[...]
        while let first = view.first, characters.contains(first) { view = view.dropFirst() }
        while let last = view.last, characters.contains(last) { view = view.dropLast() }
        return String(view)
    }
}
