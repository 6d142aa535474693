/// HTTP/1.1 as `SocketTransport` writes requests and reads answers: a request with a
/// `Content-Length`, an answer framed by `Content-Length`, chunks or the end of the connection.
/// What Typesense's server (h2o) sends; anything else is refused, never guessed at.
enum HTTPWire {
    struct Malformed: Error, Equatable {
        let reason: String
    }

    /// An answer read whole, and whether its connection may carry the next request.
    struct Answer: Equatable {
        var response: HTTPResponse
        var keepAlive: Bool
        /// Bytes of the buffer this answer took.
        var length: Int
    }

    static func request(_ request: HTTPRequest, host: String) -> [UInt8] {
        var head = "\(request.method.rawValue) \(request.target) HTTP/1.1\r\nHost: \(host)\r\n"
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        let body = request.body ?? []
        if !body.isEmpty || request.method != .get { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    /// The answer at the start of `buffer`, or nil while more bytes are needed; `closed`: the peer
    /// closed the connection after these bytes (which ends an answer framed by the connection).
    static func answer(in buffer: [UInt8], closed: Bool) throws(Malformed) -> Answer? {
        guard let headEnd = headerEnd(buffer) else {
            if buffer.count > 64 * 1024 { throw Malformed(reason: "a header over 64 KiB") }
            return nil
        }
        let lines = String(decoding: buffer[..<headEnd], as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let status = lines.first?.split(separator: " ", maxSplits: 2) ?? []
        guard status.count >= 2, status[0].hasPrefix("HTTP/1."), let code = Int(status[1]), (100...599).contains(code) else {
            throw Malformed(reason: "a status line '\(lines.first.map { String($0.prefix(40)) } ?? "")'")
        }
        var contentLength: Int?
        var chunked = false
        var keepAlive = status[0] == "HTTP/1.1"
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmed.lowercased()
            switch name {
            case "content-length":
                guard let n = Int(value), n >= 0 else { throw Malformed(reason: "a Content-Length '\(value)'") }
                contentLength = n
            case "transfer-encoding": chunked = value.contains("chunked")
            case "connection": keepAlive = value.contains("keep-alive") || (keepAlive && !value.contains("close"))
            case "content-encoding" where value != "identity":
                throw Malformed(reason: "an answer encoded as '\(value)'")
            default: continue
            }
        }
        let bodyStart = headEnd + 4
        // A 1xx, 204 or 304 answer has no body, whatever its headers say.
        if code < 200 || code == 204 || code == 304 {
            return Answer(response: HTTPResponse(status: code, body: []), keepAlive: keepAlive, length: bodyStart)
        }
        if chunked {
            guard let (body, end) = try chunks(buffer, from: bodyStart) else { return nil }
            return Answer(response: HTTPResponse(status: code, body: body), keepAlive: keepAlive, length: end)
        }
        if let contentLength {
            guard buffer.count - bodyStart >= contentLength else { return nil }
            let body = Array(buffer[bodyStart..<bodyStart + contentLength])
            return Answer(response: HTTPResponse(status: code, body: body), keepAlive: keepAlive, length: bodyStart + contentLength)
        }
        guard closed else { return nil }
        return Answer(response: HTTPResponse(status: code, body: Array(buffer[bodyStart...])), keepAlive: false, length: buffer.count)
    }

    private static func headerEnd(_ buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4) where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }

    /// A chunked body from `start`: the bytes and where the answer ends, or nil while incomplete.
    private static func chunks(_ buffer: [UInt8], from start: Int) throws(Malformed) -> ([UInt8], Int)? {
        var body: [UInt8] = []
        var i = start
        while true {
            guard let sizeEnd = lineEnd(buffer, from: i) else { return nil }
            let sizeText = String(decoding: buffer[i..<sizeEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmed, radix: 16), size >= 0 else {
                throw Malformed(reason: "a chunk size '\(sizeText.prefix(20))'")
            }
            i = sizeEnd + 2
            if size == 0 {
                // Trailers, then an empty line.
                while true {
                    guard let end = lineEnd(buffer, from: i) else { return nil }
                    let empty = end == i
                    i = end + 2
                    if empty { return (body, i) }
                }
            }
            guard buffer.count >= i + size + 2 else { return nil }
            body.append(contentsOf: buffer[i..<i + size])
            guard buffer[i + size] == 13, buffer[i + size + 1] == 10 else { throw Malformed(reason: "a chunk without its CRLF") }
            i += size + 2
        }
    }

    private static func lineEnd(_ buffer: [UInt8], from start: Int) -> Int? {
        var i = start
        while i + 1 < buffer.count {
            if buffer[i] == 13 && buffer[i + 1] == 10 { return i }
            i += 1
        }
        return nil
    }
}

private extension Substring {
    var trimmed: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
