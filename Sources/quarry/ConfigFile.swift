import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import QuarryJSON

/// `$XDG_CONFIG_HOME/quarry/config.json` (else `~/.config/…`): where a daemon started in the background finds the
/// options a user would otherwise pass to `quarry serve`, one object per concern (`typesense`, `http`).
enum ConfigFile {
    static var path: String {
        let environment = Locations.environment
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? "/tmp") + "/.config"
        return base + "/quarry/config.json"
    }

    /// The object under `key`, nil when the file or the key is absent; `shape` says what it must look like.
    static func section(_ key: String, shape: String) throws -> JSONObject? {
        let path = Self.path
        guard access(path, F_OK) == 0 else { return nil }
        guard case .object(let root) = try readJSONFile(path) else { throw ValidationError("\(path) must be a JSON object") }
        switch root[key] {
        case nil: return nil
        case .object(let object)?: return object
        default: throw ValidationError("\(path): \(key) must be an object \(shape)")
        }
    }
}
