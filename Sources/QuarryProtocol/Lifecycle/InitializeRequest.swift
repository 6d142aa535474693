import QuarryJSON

/// `initialize`: the first request of every connection. Negotiates the
/// position encoding used for match ranges (UTF-16 unless the client offers
/// one Quarry prefers).
public struct InitializeRequest: RequestType {
    public static let method = "initialize"
    public static let supportedPositionEncodings = ["utf-8", "utf-16", "utf-32"]

    /// `capabilities.general.positionEncodings`, in the client's order of preference.
    public var positionEncodings: [String]
    public var clientName: String?

    public init(params: Params) throws(ResponseError) {
        let capabilities = try params.optionalObject("capabilities")
        var encodings: [String] = []
        if let general = capabilities?["general"] {
            guard case .object(let general) = general else {
                throw params.fail("capabilities.general", expected: "an object", got: general)
            }
            if let list = general["positionEncodings"], !list.isNull {
                guard case .array(let values) = list else {
                    throw params.fail("capabilities.general.positionEncodings", expected: "an array of strings", got: list)
                }
                for value in values {
                    guard case .string(let encoding) = value else {
                        throw params.fail("capabilities.general.positionEncodings", expected: "an array of strings", got: value)
                    }
                    encodings.append(encoding)
                }
            }
        }
        positionEncodings = encodings
        clientName = (try params.optionalObject("clientInfo"))?["name"]?.stringValue
    }

    /// The first offered encoding Quarry supports; UTF-16 (LSP's default) otherwise.
    public var negotiatedPositionEncoding: String {
        positionEncodings.first(where: Self.supportedPositionEncodings.contains) ?? "utf-16"
    }

    public struct Response: ResponseType {
        public var serverName: String
        public var serverVersion: String
        public var protocolVersion: String
        public var positionEncoding: String
        public var methods: [String]
        /// Which daemon answered: several spawners of one data directory share its owner.
        public var daemon: DaemonInfo?
        /// Which backend holds the indices (`capabilities.backend`): its name and documented differences.
        public var backend: JSONObject?

        public init(serverName: String, serverVersion: String, protocolVersion: String, positionEncoding: String, methods: [String],
                    daemon: DaemonInfo? = nil, backend: JSONObject? = nil) {
            self.serverName = serverName
            self.serverVersion = serverVersion
            self.protocolVersion = protocolVersion
            self.positionEncoding = positionEncoding
            self.methods = methods
            self.daemon = daemon
            self.backend = backend
        }

        public var json: JSON {
            var capabilities: JSONObject = [
                "positionEncoding": .string(positionEncoding),
                "methods": .array(methods.map(JSON.string)),
                "progress": true,
                "cancellation": true,
            ]
            if let backend { capabilities["backend"] = .object(backend) }
            var result: JSONObject = [
                "serverInfo": ["name": .string(serverName), "version": .string(serverVersion)],
                "protocolVersion": .string(protocolVersion),
                "capabilities": .object(capabilities),
            ]
            if let daemon { result["daemon"] = daemon.json }
            return .object(result)
        }
    }
}
