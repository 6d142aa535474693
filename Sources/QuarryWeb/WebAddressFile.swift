import Glibc

/// `<data-dir>/http-address`: where the running daemon's HTTP listener is, for `quarry open`.
public enum WebAddressFile {
    public static func write(_ address: WebAddress, to path: String) {
        let text = Array("\(address)\n".utf8)
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        let written = text.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        if written == text.count { rename(temporary, path) } else { unlink(temporary) }
    }

    public static func read(_ path: String) -> WebAddress? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 256)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return WebAddress(parsing: line.trimmingCharacters(in: "\n "))
    }
}

extension String {
    func trimmingCharacters(in set: String) -> String { self[...].trimmingCharacters(in: set) }
}
