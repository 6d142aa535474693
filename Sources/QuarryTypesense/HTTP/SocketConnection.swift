#if canImport(Glibc)
import Glibc
#endif

/// One TCP connection to a node: non-blocking, every wait bounded by the exchange's deadline.
/// Owned by one caller at a time (`SocketTransport` takes it out of its pool and puts it back),
/// hence `@unchecked Sendable`.
final class SocketConnection: @unchecked Sendable {
    private let fd: Int32

    private init(fd: Int32) {
        self.fd = fd
    }

    deinit { close(fd) }

    /// Connects to `host:port` (the first address that accepts); nothing is sent on failure.
    static func open(host: String, port: Int, deadline: ContinuousClock.Instant) throws(HTTPTransportError) -> SocketConnection {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw HTTPTransportError(.cannotConnect, "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(first) }
        var failure = "no address"
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let address = next {
            next = address.pointee.ai_next
            let fd = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard fd >= 0 else { failure = String(cString: strerror(errno)); continue }
            let connection = SocketConnection(fd: fd)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            if connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return connection }
            guard errno == EINPROGRESS else { failure = Self.refusal(errno); continue }
            guard connection.wait(for: Int16(POLLOUT), until: deadline) else { failure = "no connection before the deadline"; continue }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
            if error == 0 { return connection }
            failure = Self.refusal(error)
        }
        throw HTTPTransportError(.cannotConnect, failure)
    }

    private static func refusal(_ code: Int32) -> String {
        code == ECONNREFUSED ? "connection refused" : String(cString: strerror(code))
    }

    /// Whether the node may still read a request here: an idle connection that is readable was
    /// closed by the node (or holds bytes no request asked for), and is not reused.
    var isReusable: Bool {
        var probe = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&probe, 1, 0) == 0
    }

    /// Sends all of `bytes`; a failure is `.connectionLost` (the node may have read part of it).
    func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(HTTPTransportError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent > 0 { offset += sent; continue }
            if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                guard wait(for: Int16(POLLOUT), until: deadline) else { throw HTTPTransportError(.timedOut, "sending") }
                continue
            }
            throw HTTPTransportError(.connectionLost, sent < 0 ? String(cString: strerror(errno)) : "nothing sent")
        }
    }

    /// Reads one whole answer. All that has arrived is read before the answer is parsed: parsing
    /// after each read would walk a large chunked answer once per read.
    func readAnswer(deadline: ContinuousClock.Instant) throws(HTTPTransportError) -> HTTPWire.Answer {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var unparsed = false
        while true {
            let received = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if received > 0 {
                buffer.append(contentsOf: chunk[..<received])
                unparsed = true
            } else if received == 0 {
                if let answer = try Self.parse(buffer, closed: true) { return Self.served(answer, buffer) }
                throw HTTPTransportError(.connectionLost, buffer.isEmpty ? "closed before answering" : "closed mid-answer")
            } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                if unparsed, let answer = try Self.parse(buffer, closed: false) { return Self.served(answer, buffer) }
                unparsed = false
                guard wait(for: Int16(POLLIN), until: deadline) else { throw HTTPTransportError(.timedOut, "waiting for the answer") }
            } else {
                throw HTTPTransportError(.connectionLost, String(cString: strerror(errno)))
            }
        }
    }

    private static func parse(_ buffer: [UInt8], closed: Bool) throws(HTTPTransportError) -> HTTPWire.Answer? {
        do throws(HTTPWire.Malformed) {
            return try HTTPWire.answer(in: buffer, closed: closed)
        } catch {
            throw HTTPTransportError(.other, "a malformed answer: \(error.reason)")
        }
    }

    /// Bytes past the answer were not asked for: the connection is not kept.
    private static func served(_ answer: HTTPWire.Answer, _ buffer: [UInt8]) -> HTTPWire.Answer {
        guard answer.length != buffer.count else { return answer }
        return HTTPWire.Answer(response: answer.response, keepAlive: false, length: answer.length)
    }

    /// Waits until `events` or the deadline; false at the deadline.
    private func wait(for events: Int16, until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return false }
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            var ready = pollfd(fd: fd, events: events, revents: 0)
            let n = poll(&ready, 1, milliseconds)
            if n > 0 { return true }
            if n < 0 && errno != EINTR { return true }  // the next call reports the error
        }
    }
}
