import Glibc
import QuarryTransport

/// A blocking Unix-socket (or pipe) peer, as a real client would be.
final class TestClient {
    let readFD: Int32
    private(set) var writeFD: Int32
    private var decoder = FrameDecoder(maxMessageSize: 64 << 20)
    private var pending: [FrameEvent] = []

    init(readFD: Int32, writeFD: Int32) {
        self.readFD = readFD
        self.writeFD = writeFD
    }

    convenience init(socketPath path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard status == 0 else {
            let code = errno
            close(fd)
            throw TransportError.system(operation: "connect", path: path, errno: code)
        }
        // Guards against a hang only; no assertion depends on time.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        self.init(readFD: fd, writeFD: fd)
    }

    deinit {
        close(readFD)
        if writeFD != readFD && writeFD >= 0 { close(writeFD) }
    }

    /// Ends our output on a pipe pair (sockets use `shutdownWrite`).
    func closeWrite() {
        guard writeFD != readFD, writeFD >= 0 else { return }
        close(writeFD)
        writeFD = -1
    }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(writeFD, $0.baseAddress, $0.count) }
            if n <= 0 { return }
            offset += n
        }
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ payload: String, framing: Framing) { send(FrameEncoder.encode(Array(payload.utf8), as: framing)) }

    /// The next decoded event, or nil at end of stream.
    func next() -> FrameEvent? {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while pending.isEmpty {
            let n = buffer.withUnsafeMutableBytes { read(readFD, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                pending += decoder.finish()
                if pending.isEmpty { return nil }
                break
            }
            pending += buffer.withUnsafeBytes { decoder.feed(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
        }
        return pending.removeFirst()
    }

    func nextText() -> String? {
        guard case .frame(let payload) = next() else { return nil }
        return String(decoding: payload, as: UTF8.self)
    }

    /// True if the peer closes without sending another frame.
    func readsEOF() -> Bool { next() == nil }

    func shutdownWrite() { shutdown(writeFD, Int32(SHUT_WR)) }
}
