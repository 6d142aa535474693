/// Parses an LSP base-protocol header block, byte by byte (no `String` per message).
enum FrameHeader {
    /// The declared body length of `block` (the bytes before `\r\n\r\n`), or why it is invalid.
    static func contentLength(in block: ArraySlice<UInt8>) -> Result<Int, FramingError> {
        var length: Int?
        var lineStart = block.startIndex
        while lineStart < block.endIndex {
            let lineEnd = lineEnd(in: block, from: lineStart)
            let line = block[lineStart..<lineEnd]
            lineStart = min(lineEnd + 2, block.endIndex)
            if trimmed(line).isEmpty { continue }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                return .failure(.invalidHeader("malformed header line (no colon)"))
            }
            let name = trimmed(line[line.startIndex..<colon])
            guard equalsIgnoringCase(name, contentLengthName) else { continue }  // Content-Type and others
            switch parseDecimal(trimmed(line[(colon + 1)...])) {
            case .failure(let error): return .failure(error)
            case .success(let value):
                if let previous = length, previous != value {
                    return .failure(.invalidHeader("conflicting Content-Length headers"))
                }
                length = value
            }
        }
        guard let length else { return .failure(.invalidHeader("missing Content-Length header")) }
        return .success(length)
    }

    private static let contentLengthName = Array("content-length".utf8)

    private static func lineEnd(in block: ArraySlice<UInt8>, from start: Int) -> Int {
        var i = start
        while i < block.endIndex {
            if block[i] == 13, i + 1 < block.endIndex, block[i + 1] == 10 { return i }
            i += 1
        }
        return block.endIndex
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var lower = bytes.startIndex, upper = bytes.endIndex
        // Also CR/LF: a stray newline after the previous body lands at the start of the next block.
        while lower < upper, isSpace(bytes[lower]) { lower += 1 }
        while upper > lower, isSpace(bytes[upper - 1]) { upper -= 1 }
        return bytes[lower..<upper]
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 32 || byte == 9 || byte == 13 || byte == 10
    }

    private static func equalsIgnoringCase(_ bytes: ArraySlice<UInt8>, _ lowercase: [UInt8]) -> Bool {
        guard bytes.count == lowercase.count else { return false }
        for (byte, expected) in zip(bytes, lowercase) {
            let lowered = (65...90).contains(byte) ? byte | 0x20 : byte
            if lowered != expected { return false }
        }
        return true
    }

    private static func parseDecimal(_ digits: ArraySlice<UInt8>) -> Result<Int, FramingError> {
        guard !digits.isEmpty else { return .failure(.invalidHeader("empty Content-Length")) }
        var value = 0
        for byte in digits {
            guard (48...57).contains(byte) else {
                return .failure(.invalidHeader("Content-Length is not a decimal number"))
            }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - 48))
            if overflow1 || overflow2 { return .failure(.invalidHeader("Content-Length out of range")) }
            value = sum
        }
        return .success(value)
    }
}
