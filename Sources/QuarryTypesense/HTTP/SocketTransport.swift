import QuarrySync

/// `HTTPTransport` for `http://` nodes on plain sockets: the request is written and its answer
/// read on the caller's thread, over a connection kept alive in a pool per node. A keystroke's
/// `multi_search` then costs no thread hop; under URLSession (libcurl on Linux) each call went
/// through its session's threads and a semaphore, about a fifth of the daemon's time on a
/// keystroke (Benchmarks/RESULTS.md, issue 30). `https://` nodes go to `fallback`.
public final class SocketTransport: HTTPTransport {
    /// One pool for the process, so every cluster shares its connections.
    public static let shared = SocketTransport()

    private let idle = Locked<[String: [SocketConnection]]>([:])
    private let maximumIdlePerNode: Int
    private let fallback: any HTTPTransport

    public init(maximumIdlePerNode: Int = 16, fallback: any HTTPTransport = URLSessionTransport.shared) {
        self.maximumIdlePerNode = maximumIdlePerNode
        self.fallback = fallback
    }

    public func send(_ request: HTTPRequest) throws(HTTPTransportError) -> HTTPResponse {
        guard request.baseURL.hasPrefix("http://") else { return try fallback.send(request) }
        let authority = String(request.baseURL.dropFirst("http://".count))
        guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]) else {
            throw HTTPTransportError(.invalidURL, request.baseURL)
        }
        let host = String(authority[..<colon]).trimmingCharacters(in: ["[", "]"])
        let deadline = ContinuousClock.now + .milliseconds(Int64(request.timeout * 1000))
        let bytes = HTTPWire.request(request, host: authority)
        while true {
            let pooled = take(authority)
            let connection: SocketConnection
            if let pooled { connection = pooled } else { connection = try SocketConnection.open(host: host, port: port, deadline: deadline) }
            do throws(HTTPTransportError) {
                try connection.write(bytes, deadline: deadline)
            } catch {
                // The node closed a kept connection as the request went out: it cannot have acted on a
                // request it did not read whole, so it goes out again on a new connection.
                if pooled != nil && error.kind == .connectionLost { continue }
                throw error
            }
            let answer = try connection.readAnswer(deadline: deadline)
            if answer.keepAlive { put(connection, authority) }
            return answer.response
        }
    }

    private func take(_ authority: String) -> SocketConnection? {
        while let connection = idle.withLock({ $0[authority]?.popLast() }) {
            if connection.isReusable { return connection }
        }
        return nil
    }

    private func put(_ connection: SocketConnection, _ authority: String) {
        idle.withLock { pool in
            if pool[authority, default: []].count < maximumIdlePerNode { pool[authority, default: []].append(connection) }
        }
    }
}

private extension String {
    func trimmingCharacters(in set: Set<Character>) -> String {
        String(drop(while: set.contains).reversed().drop(while: set.contains).reversed())
    }
}
