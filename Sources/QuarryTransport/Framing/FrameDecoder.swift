import Glibc

/// Turns a connection's inbound byte stream into payloads, as a pure value.
///
/// Feed bytes as they arrive and dispatch the returned events afterwards: never
/// call out while `feed` runs (a handler touching the decoder would be a
/// simultaneous access). Oversized frames are refused without being buffered.
///
/// A frame that ends where the buffered input ends and begins where it begins
/// (a large request, read in many chunks, with nothing after it) is handed over
/// as the buffer itself rather than copied out of it: a batch of 5,000 records
/// is 2.8 MB, copied on the loop's thread before its parse could start.
public struct FrameDecoder: Sendable {
    /// The largest header block accepted, `\r\n\r\n` excluded.
    public static let maxHeaderSize = 8 * 1024
    /// A body whose `Content-Length` is known is buffered in an array reserved for it, up to this size
    /// (beyond, it grows as it arrives): a peer declaring a large body and sending nothing pins no more.
    /// The same bounds what a line is given ahead (see `.line`).
    static let maxReservedBody = 8 << 20

    public let maxMessageSize: Int
    /// Nil until the first non-whitespace byte arrives.
    public private(set) var framing: Framing?

    private enum State: Sendable {
        case detecting
        case header
        case body(length: Int)
        case discardingBody(remaining: Int)
        case discardingHeader
        case line
        case discardingLine
    }

    private var state: State = .detecting
    private var buffer: [UInt8] = []
    /// Index of the first unconsumed byte of `buffer`.
    private var start = 0
    /// Bytes after `start` already searched for a terminator, so chunked input is not rescanned.
    private var scanned = 0
    /// The length of the last line read, its newline excluded: what the next is expected to need.
    private var lastLine = 0

    public init(maxMessageSize: Int = 64 << 20) {
        self.maxMessageSize = maxMessageSize
    }

    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [FrameEvent] {
        buffer.append(contentsOf: bytes)
        var events: [FrameEvent] = []
        while step(into: &events) {}
        compact()
        return events
    }

    public mutating func feed(_ bytes: [UInt8]) -> [FrameEvent] {
        bytes.withUnsafeBytes { feed($0) }
    }

    /// The peer closed its side: reports a frame cut short, and delivers a final
    /// newline-delimited line that had no newline.
    public mutating func finish() -> [FrameEvent] {
        defer { buffer = []; start = 0; scanned = 0; state = .detecting }
        let pending = buffer[start...]
        switch state {
        case .body(let length):
            return [.error(.truncatedAtEOF(missing: length - pending.count))]
        case .header:
            return pending.allSatisfy(Self.isWhitespace) ? [] : [.error(.truncatedAtEOF(missing: 0))]
        case .line:
            let line = Self.strippingCarriageReturn(pending)
            if line.count > maxMessageSize { return [.error(.lineTooLong(limit: maxMessageSize))] }
            return line.allSatisfy(Self.isWhitespace) ? [] : [.frame(Array(line))]
        case .detecting, .discardingBody, .discardingHeader, .discardingLine:
            return []
        }
    }

    /// Advances the state machine once; false when more input is needed.
    private mutating func step(into events: inout [FrameEvent]) -> Bool {
        let available = buffer.count - start
        switch state {
        case .detecting:
            while start < buffer.count, Self.isWhitespace(buffer[start]) { start += 1 }
            guard start < buffer.count else { return false }
            let detected = Framing.detect(firstByte: buffer[start])
            framing = detected
            state = detected == .newlineDelimited ? .line : .header
            scanned = 0
            return true

        case .header:
            guard let end = findHeaderTerminator() else {
                scanned = available
                if available > Self.maxHeaderSize + 3 {
                    events.append(.error(.invalidHeader("header block over \(Self.maxHeaderSize) bytes")))
                    dropAllButTerminatorPrefix()
                    state = .discardingHeader
                }
                return false
            }
            let block = buffer[start..<end]
            start = end + 4
            scanned = 0
            if block.count > Self.maxHeaderSize {
                events.append(.error(.invalidHeader("header block over \(Self.maxHeaderSize) bytes")))
                return true
            }
            switch FrameHeader.contentLength(in: block) {
            case .failure(let error):
                events.append(.error(error))
            case .success(let length) where length > maxMessageSize:
                events.append(.error(.messageTooLarge(declared: length, limit: maxMessageSize)))
                state = .discardingBody(remaining: length)
            case .success(let length):
                state = .body(length: length)
                if buffer.count - start < length { startBody(length: length) }
            }
            return true

        case .body(let length):
            guard available >= length else { return false }
            events.append(.frame(take(start..<start + length, consuming: start + length)))
            state = .header
            return true

        case .discardingBody(let remaining):
            let dropped = min(remaining, available)
            start += dropped
            guard dropped == remaining else {
                state = .discardingBody(remaining: remaining - dropped)
                return false
            }
            state = .header
            return true

        case .discardingHeader:
            guard let end = findHeaderTerminator() else {
                dropAllButTerminatorPrefix()
                return false
            }
            start = end + 4
            scanned = 0
            state = .header
            return true

        case .line:
            guard let newline = findByte(10) else {
                scanned = available
                // +1: a line of exactly the limit may still be followed by "\r".
                if available > maxMessageSize + 1 {
                    events.append(.error(.lineTooLong(limit: maxMessageSize)))
                    start = buffer.count
                    scanned = 0
                    state = .discardingLine
                } else if start == 0 {
                    // A line's size is not given, but a client streaming batches sends lines of much the same
                    // size: room for one, reserved once, saves growing by doubling, which for a batch of 5,000
                    // records (2.8 MB) ended in a 4 MiB block mapped afresh, and faulted in, for every request.
                    let expected = min(lastLine + lastLine / 8, Self.maxReservedBody)
                    if buffer.capacity < expected { buffer.reserveCapacity(expected) }
                }
                return false
            }
            let end = Self.strippingCarriageReturn(buffer[start..<newline]).endIndex
            lastLine = end - start
            scanned = 0
            if lastLine > maxMessageSize {
                events.append(.error(.lineTooLong(limit: maxMessageSize)))
            } else if !buffer[start..<end].allSatisfy(Self.isWhitespace) {
                events.append(.frame(take(start..<end, consuming: newline + 1)))
                return true
            }
            start = newline + 1
            return true

        case .discardingLine:
            guard let newline = findByte(10) else {
                start = buffer.count
                scanned = 0
                return false
            }
            start = newline + 1
            scanned = 0
            state = .line
            return true
        }
    }

    /// Index of the `\r` starting `\r\n\r\n` at or after `start`.
    private func findHeaderTerminator() -> Int? {
        var i = start + max(0, scanned - 3)
        while i + 3 < buffer.count {
            if buffer[i + 3] != 10 { i += buffer[i + 3] == 13 ? 1 : 4; continue }
            if buffer[i] == 13, buffer[i + 1] == 10, buffer[i + 2] == 13 { return i }
            i += 1
        }
        return nil
    }

    private func findByte(_ byte: UInt8) -> Int? {
        let from = start + scanned
        guard from < buffer.count else { return nil }
        return buffer.withUnsafeBytes { bytes -> Int? in
            guard let base = bytes.baseAddress,
                  let found = memchr(base + from, Int32(byte), bytes.count - from) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }

    /// The bytes of `range`, consuming the input up to `end`: the buffer itself when that is all of it
    /// (which leaves it empty), else a copy.
    private mutating func take(_ range: Range<Int>, consuming end: Int) -> [UInt8] {
        guard range.lowerBound == 0, end == buffer.count else {
            start = end
            return Array(buffer[range])
        }
        var whole: [UInt8] = []
        swap(&whole, &buffer)
        whole.removeSubrange(range.upperBound...)
        start = 0
        return whole
    }

    /// Moves the part of a body already read to an array reserved for the whole body, so that it is
    /// not copied as the buffer grows and can be handed over as it is (`take`).
    private mutating func startBody(length: Int) {
        var body: [UInt8] = []
        body.reserveCapacity(min(length, Self.maxReservedBody))
        body.append(contentsOf: buffer[start...])
        buffer = body
        start = 0
        scanned = 0
    }

    /// Keeps only the last 3 bytes, which may begin a terminator split across reads.
    private mutating func dropAllButTerminatorPrefix() {
        start = max(start, buffer.count - 3)
        scanned = buffer.count - start
    }

    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
            start = 0
        } else if start > 64 * 1024 && start > buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 32 || byte == 9 || byte == 10 || byte == 13
    }

    private static func strippingCarriageReturn(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        line.last == 13 ? line.dropLast() : line
    }
}
