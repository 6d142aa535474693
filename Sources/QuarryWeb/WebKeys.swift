import Glibc
import QuarryJSON

/// The two keys of `<data-dir>/keys.json` (protocol/keys.md): created once, mode 0600, never logged.
public struct WebKeys: Sendable {
    public let admin: String
    public let search: String

    public init(admin: String, search: String) {
        self.admin = admin
        self.search = search
    }

    /// What `presented` grants; nil when it is neither key. Compared in constant time so the
    /// time a refusal takes tells nothing of how much of a key was right.
    public func access(for presented: String) -> WebAccess? {
        if Self.constantTimeEqual(presented, admin) { return .admin }
        if Self.constantTimeEqual(presented, search) { return .searchOnly }
        return nil
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<max(x.count, y.count) {
            difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
        }
        return difference == 0
    }

    /// 32 random bytes as hex: a bearer token, a subprotocol token and a URL fragment alike.
    public static func newKey() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for _ in 0..<32 {
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

public enum WebKeysError: Error, CustomStringConvertible {
    case unreadable(String, String)
    case invalid(String)
    case tooOpen(String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read or create \(path): \(reason)"
        case .invalid(let path): "\(path) is not {\"admin\": KEY, \"search\": KEY}"
        case .tooOpen(let path): "\(path) is readable by others: chmod 600 it"
        }
    }
}

extension WebKeys {
    /// Reads `<directory>/keys.json`, creating it (0600, exclusively) the first time.
    public static func loadOrCreate(dataDirectory directory: String) throws(WebKeysError) -> WebKeys {
        let path = directory + "/keys.json"
        let fresh = WebKeys(admin: newKey(), search: newKey())
        let created = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if created >= 0 {
            let text = (JSONWriter.encode(.object(["admin": .string(fresh.admin), "search": .string(fresh.search)])))
                + [UInt8(ascii: "\n")]
            let written = text.withUnsafeBytes { write(created, $0.baseAddress, $0.count) }
            let synced = fsync(created) == 0
            close(created)
            guard written == text.count, synced else {
                unlink(path)
                throw .unreadable(path, "short write")
            }
            return fresh
        }
        guard errno == EEXIST else { throw .unreadable(path, String(cString: strerror(errno))) }
        return try read(path)
    }

    static func read(_ path: String) throws(WebKeysError) -> WebKeys {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path, String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(path, String(cString: strerror(errno))) }
        guard status.st_mode & 0o077 == 0 else { throw .tooOpen(path) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65536 {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        guard case .object(let object)? = try? JSONParser.parse(bytes),
              case .string(let admin)? = object["admin"], case .string(let search)? = object["search"],
              admin.utf8.count >= 32, search.utf8.count >= 32, admin != search
        else { throw .invalid(path) }
        return WebKeys(admin: admin, search: search)
    }
}
