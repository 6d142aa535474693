import QuarryJSON

/// `listenHTTP`: starts the daemon's HTTP listener (the search page and JSON-RPC over WebSocket) if it
/// does not run yet, on config.json's `http.listen` or a free loopback port, and says where it listens.
/// What `quarry open` asks of a daemon that was started without `--http`.
public struct ListenHTTPRequest: RequestType {
    public static let method = "listenHTTP"
    public init(params: Params) throws(ResponseError) {}

    public struct Response: ResponseType, Equatable {
        /// `HOST:PORT`, as `<data-dir>/http-address` holds it.
        public var address: String
        /// False when the listener was already running.
        public var started: Bool

        public init(address: String, started: Bool) {
            self.address = address
            self.started = started
        }

        public var json: JSON { ["address": .string(address), "started": .bool(started)] }
    }
}
