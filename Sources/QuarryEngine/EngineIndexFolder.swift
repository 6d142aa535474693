#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import QuarrySearchContract

/// Where one index lives on disk: `<data>/indices/<escaped name>/` holding
/// `records.sqlite` (the truth, with its -wal/-shm) and `search.index` (derived).
///
/// Index names may hold any character; folder names keep `[A-Za-z0-9_.-]` and
/// write every other byte (and a leading dot) as `%XX`, so the mapping is
/// reversible and never escapes the folder.
struct EngineIndexFolder: Sendable {
    static let maxNameBytes = 200
    let path: String

    var databasePath: String { path + "/records.sqlite" }
    /// The primary's derived file, or a replica's (`replica-<escaped name>.index`).
    func derivedPath(replica: String?) -> String {
        guard let replica else { return path + "/search.index" }
        return path + "/replica-" + Self.escape(replica) + ".index"
    }

    init(path: String) {
        self.path = path
    }

    init(dataDirectory: String, name: String) throws(BackendError) {
        guard !name.isEmpty, name.utf8.count <= Self.maxNameBytes else {
            throw .invalidParameter(name: "indexName", expected: "a name of 1 to \(Self.maxNameBytes) bytes")
        }
        path = Self.indicesPath(dataDirectory) + "/" + Self.escape(name)
    }

    static func indicesPath(_ dataDirectory: String) -> String { dataDirectory + "/indices" }

    static func escape(_ name: String) -> String {
        var result = ""
        for (offset, byte) in name.utf8.enumerated() {
            let isPlain = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || (byte == UInt8(ascii: ".") && offset > 0)
            if isPlain {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF".utf8)
                result += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return result
    }

    /// Folder names under `<data>/indices` (not validated: the store keeps the real name).
    static func list(dataDirectory: String) -> [String] {
        guard let directory = opendir(indicesPath(dataDirectory)) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if !name.hasPrefix("."), !name.hasSuffix(".deleting") { names.append(name) }
        }
        return names.sorted()
    }

    func create() throws(BackendError) {
        try Self.makeDirectories(path)
    }

    /// Makes the new index's folder entries durable, so a power cut right after
    /// its first acknowledged write cannot lose the folder itself.
    func syncDirectories() {
        for directory in [path, String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])] {
            let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            fsync(fd)
            close(fd)
        }
    }

    /// `mkdir -p`: every missing folder on the way to `path`.
    static func makeDirectories(_ path: String) throws(BackendError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw .system(errno, "cannot create \(prefix)")
            }
        }
    }

    /// Renames the folder aside first so a crash mid-removal never leaves a
    /// half-deleted index that would be opened again.
    func remove() throws(BackendError) {
        let doomed = path + ".deleting"
        guard rename(path, doomed) == 0 else {
            if errno == ENOENT { return }
            throw .system(errno, "cannot delete \(path)")
        }
        Self.removeTree(doomed)
    }

    /// Finishes deletions a crash interrupted.
    static func removeLeftovers(dataDirectory: String) {
        guard let directory = opendir(indicesPath(dataDirectory)) else { return }
        var doomed: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasSuffix(".deleting") { doomed.append(indicesPath(dataDirectory) + "/" + name) }
        }
        closedir(directory)
        doomed.forEach(removeTree)
    }

    static func removeTree(_ folder: String) {
        if let directory = opendir(folder) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if name != "." && name != ".." { unlink(folder + "/" + name) }
            }
            closedir(directory)
        }
        rmdir(folder)
    }

    func size(of file: String) -> Int64 {
        var info = stat()
        return stat(file, &info) == 0 ? Int64(info.st_size) : 0
    }
}
