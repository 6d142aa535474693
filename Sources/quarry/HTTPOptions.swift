import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import QuarryJSON
import QuarryWeb

/// `quarry serve`'s HTTP listener options, else the `http` object of `$XDG_CONFIG_HOME/quarry/config.json`
/// (what a daemon started in the background reads): `{"listen": "127.0.0.1:7700", "allowOrigins": [...],
/// "allowHosts": [...]}`. Off unless one of them names an address (protocol/websocket.md).
struct HTTPOptions: ParsableArguments {
    @Option(name: .customLong("http"), help: ArgumentHelp(
        "Also serve the search page and JSON-RPC over WebSocket on [HOST:]PORT (HOST defaults to 127.0.0.1).",
        valueName: "[HOST:]PORT"))
    var listen: String?

    @Option(name: .customLong("http-allow-origin"), help: ArgumentHelp(
        "A web origin (scheme://host[:port]) whose pages may open the WebSocket and get CORS headers; repeatable.",
        valueName: "ORIGIN"))
    var allowOrigins: [String] = []

    @Option(name: .customLong("http-allow-host"), help: ArgumentHelp(
        "A host name besides the loopback ones that requests may name in Host; repeatable.", valueName: "HOST"))
    var allowHosts: [String] = []

    @Option(name: .customLong("http-idle-timeout"), help: ArgumentHelp(
        "Close an HTTP connection that sends no request for this long (a WebSocket stays open). Default 30.",
        valueName: "SECONDS"))
    var idleTimeout: Int64?

    func validate() throws {
        if let idleTimeout, idleTimeout < 1 {
            throw ValidationError("--http-idle-timeout takes a number of seconds of at least 1")
        }
        if let listen, WebAddress(parsing: listen) == nil {
            throw ValidationError("--http takes [HOST:]PORT, such as 7700 or 127.0.0.1:7700")
        }
        for origin in allowOrigins where !(origin.hasPrefix("http://") || origin.hasPrefix("https://")) {
            throw ValidationError("--http-allow-origin takes an origin such as https://example.org, not '\(origin)'")
        }
    }

    /// The listener's options, nil when HTTP is off.
    func options(maxMessageSize: Int) throws -> WebListenerOptions? {
        var listen = self.listen
        var origins = allowOrigins, hosts = allowHosts
        if listen == nil, let object = try Self.configFile() {
            guard case .string(let text)? = object["listen"] else {
                throw ValidationError("config.json: http.listen must be a string [HOST:]PORT")
            }
            listen = text
            origins += Self.strings(object["allowOrigins"])
            hosts += Self.strings(object["allowHosts"])
        }
        guard let listen else { return nil }
        guard let address = WebAddress(parsing: listen) else {
            throw ValidationError("HTTP listen address '\(listen)' is not [HOST:]PORT")
        }
        var options = WebListenerOptions(address: address)
        options.allowedOrigins = Set(origins)
        options.allowedHosts = Set(hosts)
        options.maxMessageSize = maxMessageSize
        if let idleTimeout { options.idleTimeoutSeconds = idleTimeout }
        return options
    }

    private static func strings(_ value: JSON?) -> [String] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }

    /// config.json's `http` object, nil when absent.
    static func configFile() throws -> JSONObject? {
        try ConfigFile.section("http", shape: "{listen, allowOrigins, allowHosts}")
    }
}
