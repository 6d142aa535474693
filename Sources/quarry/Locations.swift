#if canImport(Glibc)
import Glibc
#endif
import QuarryTransport

/// Where the daemon keeps its data and its socket by default.
enum Locations {
    static var environment: [String: String] {
        var values: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                values[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return values
    }

    /// `$XDG_DATA_HOME/quarry`, else `~/.local/share/quarry`.
    static var defaultDataDirectory: String {
        let environment = environment
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/quarry" }
        return (environment["HOME"] ?? "/tmp") + "/.local/share/quarry"
    }

    /// The socket path given, or the default one (warning on stderr when it
    /// falls back to a private directory under $TMPDIR).
    static func socketPath(_ explicit: String?) -> String {
        if let explicit { return explicit }
        let resolved = SocketPath.default(environment: environment)
        if let warning = resolved.warning { Log.standardError.write("warning: \(warning)") }
        return resolved.path
    }

    static func ensureDirectory(_ path: String) {
        var current = ""
        for component in path.split(separator: "/") {
            current += "/" + component
            mkdir(current, 0o700)
        }
    }
}
