import Glibc

/// Where the daemon's socket lives, and the private directory around it.
public enum SocketPath {
    /// `$QUARRY_SOCK`, else `$XDG_RUNTIME_DIR/quarry/quarry.sock` when that directory exists, else
    /// `$TMPDIR/quarry-<uid>/quarry.sock` (or under `/tmp`) with a warning saying so.
    public static func `default`(environment: [String: String]) -> (path: String, warning: String?) {
        if let explicit = environment["QUARRY_SOCK"], !explicit.isEmpty {
            return (explicit, nil)
        }
        let tmp = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : trimmingTrailingSlashes($0) } ?? "/tmp"
        let fallback = "\(tmp)/quarry-\(getuid())/quarry.sock"
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else {
            return (fallback, "XDG_RUNTIME_DIR is not set; using \(fallback) in a private per-user directory")
        }
        // A session manager creates the runtime directory; a stale variable
        // (su, containers) names one that is gone, which must not stop the daemon.
        var info = stat()
        guard stat(runtime, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            return (fallback, "XDG_RUNTIME_DIR (\(runtime)) is not a directory; using \(fallback) in a private per-user directory")
        }
        return ("\(trimmingTrailingSlashes(runtime))/quarry/quarry.sock", nil)
    }

    /// Creates `directory` with mode 0700 if it is missing (its parent must exist).
    /// With `requirePrivate`, refuses a directory that is a symlink, owned by
    /// another user, or writable by group or others.
    public static func prepareDirectory(_ directory: String, requirePrivate: Bool) throws {
        if mkdir(directory, 0o700) == 0 {
            chmod(directory, 0o700)  // the umask may have narrowed it; never widened
        } else if errno != EEXIST {
            throw TransportError.system(operation: "mkdir", path: directory, errno: errno)
        }
        var info = stat()
        let status = requirePrivate ? lstat(directory, &info) : stat(directory, &info)
        guard status == 0 else { throw TransportError.system(operation: "stat", path: directory, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw TransportError.unsafeDirectory(path: directory, reason: "not a directory")
        }
        guard requirePrivate else { return }
        if info.st_uid != geteuid() {
            throw TransportError.unsafeDirectory(path: directory, reason: "owned by uid \(info.st_uid), not \(geteuid())")
        }
        if info.st_mode & 0o022 != 0 {
            throw TransportError.unsafeDirectory(
                path: directory, reason: "writable by group or others (mode \(String(info.st_mode & 0o777, radix: 8)))")
        }
    }

    static func parent(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        let parent = String(path[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    private static func trimmingTrailingSlashes(_ path: String) -> String {
        var result = Substring(path)
        while result.count > 1, result.hasSuffix("/") { result = result.dropLast() }
        return String(result)
    }
}
