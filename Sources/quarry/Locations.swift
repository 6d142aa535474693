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

    /// The socket path given, or the default one.
    static func socketPath(_ explicit: String?) -> String {
        explicit ?? SocketPath.default(environment: environment).path
    }

    /// Why the default socket is not under $XDG_RUNTIME_DIR, if it is not. Said once, when a daemon
    /// starts on it (by `quarry serve` or for a client command), not by every command that uses it.
    static func warning(forSocket path: String) -> String? {
        let resolved = SocketPath.default(environment: environment)
        guard path == resolved.path, let warning = resolved.warning else { return nil }
        return "warning: \(warning)"
    }

    /// Where the daemon that owns `dataDirectory` always listens, whatever mode
    /// it runs in, so a later `quarry serve` on that directory can find it:
    /// `<dir>/quarry.sock`, or under the default socket's directory, named by a
    /// hash of the path, when that would be too long for a socket address.
    static func ownerSocketPath(dataDirectory: String) -> String {
        let inside = dataDirectory + "/quarry.sock"
        if inside.utf8.count <= maxSocketPathBytes { return inside }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: stable across runs, unlike Hasher
        for byte in dataDirectory.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let runtime = SocketPath.default(environment: environment.filter { $0.key != "QUARRY_SOCK" }).path
        let directory = runtime.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return directory + "/data-" + String(hash, radix: 16) + ".sock"
    }

    /// A `sun_path` holds 108 bytes with the terminating NUL.
    static let maxSocketPathBytes = 107

    static func ensureDirectory(_ path: String) {
        var current = ""
        for component in path.split(separator: "/") {
            current += "/" + component
            mkdir(current, 0o700)
        }
    }
}
