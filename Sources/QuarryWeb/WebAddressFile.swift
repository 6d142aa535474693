import Glibc

/// `<data-dir>/http-address`: where the running daemon's HTTP listener is, for scripts and tests
/// (`quarry open` asks the daemon instead: `listenHTTP`).
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
}
