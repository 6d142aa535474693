#if canImport(Glibc)
import Glibc
#endif
import QuarryBackend
import QuarryJSON

/// Which cluster a daemon's indices live on, from `quarry serve`'s options or
/// the `typesense` object of `$XDG_CONFIG_HOME/quarry/config.json`.
public struct TypesenseConfiguration: Sendable, Equatable {
    /// `host:port` of each node's API (http).
    public var nodes: [String]
    /// Never logged, never written anywhere by Quarry: it is read from a file only its owner can read.
    public var apiKey: String
    public var indices: RoutedBackend.Selection
    /// How long a write keeps retrying while the cluster elects a new leader (it takes 7–10.5 s).
    public var writeRetrySeconds: Double = 25
    /// How long after a write this daemon reads from the leader only (followers lag by about 500 ms).
    public var readYourWritesSeconds: Double = 2

    public init(nodes: [String], apiKey: String, indices: RoutedBackend.Selection = .all) {
        self.nodes = nodes
        self.apiKey = apiKey
        self.indices = indices
    }

    /// The nodes of `--typesense-nodes`: `host:port`, comma-separated.
    public static func parseNodes(_ text: String) throws(TypesenseConfigurationError) -> [String] {
        let nodes = text.split(separator: ",").map { String($0).trimmingAny(of: " ") }.filter { !$0.isEmpty }
        guard !nodes.isEmpty else { throw .invalid("typesense nodes", "host:port[,host:port…]: none was given") }
        for node in nodes {
            guard let colon = node.lastIndex(of: ":"), colon != node.startIndex,
                  let port = Int(node[node.index(after: colon)...]), (1...65535).contains(port)
            else { throw .invalid("typesense nodes", "host:port[,host:port…]: '\(node)' has no valid port") }
        }
        return nodes
    }

    /// `all`, or index names, comma-separated.
    public static func parseIndices(_ text: String) throws(TypesenseConfigurationError) -> RoutedBackend.Selection {
        if text == "all" { return .all }
        let names = Set(text.split(separator: ",").map { String($0).trimmingAny(of: " ") }.filter { !$0.isEmpty })
        guard !names.isEmpty else { throw .invalid("typesense indices", "'all' or index names separated by commas") }
        return .named(names)
    }

    /// The `typesense` object of the config file: `{"nodes": [...], "apiKeyFile": PATH, "indices": "all" | [names]}`.
    public static func fromConfig(_ object: JSONObject) throws(TypesenseConfigurationError) -> TypesenseConfiguration {
        guard case .array(let nodeValues)? = object["nodes"], !nodeValues.isEmpty else {
            throw .invalid("typesense.nodes", "a non-empty array of \"host:port\" strings")
        }
        var nodes: [String] = []
        for value in nodeValues {
            guard case .string(let node) = value else { throw .invalid("typesense.nodes", "an array of \"host:port\" strings") }
            nodes += try parseNodes(node)
        }
        guard case .string(let keyFile)? = object["apiKeyFile"] else {
            throw .invalid("typesense.apiKeyFile", "the path of a file holding the API key (mode 600); the key itself is never put in the config")
        }
        var indices = RoutedBackend.Selection.all
        switch object["indices"] {
        case nil, .string("all"): break
        case .array(let values):
            var names: Set<String> = []
            for value in values {
                guard case .string(let name) = value else { throw .invalid("typesense.indices", "\"all\" or an array of index names") }
                names.insert(name)
            }
            indices = .named(names)
        default: throw .invalid("typesense.indices", "\"all\" or an array of index names")
        }
        return TypesenseConfiguration(nodes: nodes, apiKey: try readAPIKey(file: keyFile), indices: indices)
    }

    /// The key in `path`, refused when the file can be read by anyone but its owner.
    public static func readAPIKey(file path: String) throws(TypesenseConfigurationError) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .keyFile(path, "cannot be read: \(String(cString: strerror(errno)))") }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw .keyFile(path, "can be read by others (mode \(String(mode, radix: 8))); run `chmod 600 \(path)`")
        }
        guard let handle = fopen(path, "r") else { throw .keyFile(path, "cannot be opened: \(String(cString: strerror(errno)))") }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, handle)
            if count <= 0 { break }
            bytes += buffer[..<count]
            if bytes.count > 65536 { throw .keyFile(path, "is larger than 64 KiB: it does not hold just an API key") }
        }
        let key = String(decoding: bytes, as: UTF8.self).trimmingAny(of: " \n\r\t")
        guard !key.isEmpty else { throw .keyFile(path, "is empty") }
        return key
    }
}

public enum TypesenseConfigurationError: Error, Sendable, CustomStringConvertible {
    case invalid(String, String)
    case keyFile(String, String)

    public var description: String {
        switch self {
        case .invalid(let name, let expected): "\(name) must be \(expected)"
        case .keyFile(let path, let problem): "the Typesense API key file \(path) \(problem)"
        }
    }
}

extension String {
    fileprivate func trimmingAny(of set: String) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
