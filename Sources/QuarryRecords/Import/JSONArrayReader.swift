import QuarryJSON
import QuarrySearchContract

/// Reads a file holding one JSON array, element by element, without loading
/// the file: a byte scanner that knows strings, escapes and nesting finds
/// each element's bounds, then `JSONParser` parses just that element. A
/// malformed element is reported and stepped over; a broken array is fatal.
///
/// A `.json` file that starts with `{` is read as a stream of objects
/// separated by whitespace (NDJSON, or pretty-printed objects one after
/// another), with positions still counted as records.
struct JSONArrayReader: FileImportReader {
    let bytes: ImportFileBytes
    private var phase = Phase.start
    private var recordNumber = 0
    private var element: [UInt8] = []

    private enum Phase { case start, firstElement, separator, stream, finished }

    init(bytes: ImportFileBytes) {
        self.bytes = bytes
    }

    mutating func next() throws(BackendError) -> ImportItem? {
        while true {
            switch phase {
            case .finished:
                return nil
            case .start:
                try skipByteOrderMark()
                if try peekNonSpace() == UInt8(ascii: "{") {
                    phase = .stream
                    continue
                }
                guard try nextNonSpace() == UInt8(ascii: "[") else {
                    throw fatal("a JSON import file must hold an array of records (or objects one after another)")
                }
                phase = .firstElement
                if try peekNonSpace() == UInt8(ascii: "]") {
                    _ = try bytes.next()
                    try finish()
                    return nil
                }
                return try readElement()
            case .firstElement:
                return try readElement()
            case .stream:
                guard try peekNonSpace() != nil else {
                    phase = .finished
                    return nil
                }
                let item = try readElement()
                phase = .stream
                return item
            case .separator:
                switch try nextNonSpace() {
                case UInt8(ascii: ","): return try readElement()
                case UInt8(ascii: "]"): try finish()
                case nil: throw fatal("the file ends before the array is closed with ']'")
                default: throw fatal("expected ',' or ']' after record \(recordNumber)")
                }
            }
        }
    }

    private mutating func readElement() throws(BackendError) -> ImportItem {
        recordNumber += 1
        phase = .separator
        guard let first = try peekNonSpace(), first != UInt8(ascii: "]") else {
            throw fatal("expected record \(recordNumber) (a trailing comma, or the array is not closed)")
        }
        let start = bytes.offset
        element.removeAll(keepingCapacity: true)
        try scanElement()
        do {
            let value = try JSONParser.parse(element)
            return .value(value, .record(recordNumber))
        } catch {
            return .invalid(.record(recordNumber), reason: "\(error.reason) at byte \(start + Int64(error.offset))")
        }
    }

    /// Copies one element's bytes into `element`, stopping before the separator.
    private mutating func scanElement() throws(BackendError) {
        var depth = 0
        var inString = false
        var escaped = false
        while let byte = try bytes.peek() {
            if depth == 0 && !inString && !element.isEmpty
                && (byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte.isJSONWhitespace) {
                return
            }
            _ = try bytes.next()
            element.append(byte)
            if inString {
                if escaped { escaped = false }
                else if byte == UInt8(ascii: "\\") { escaped = true }
                else if byte == UInt8(ascii: "\"") { inString = false; if depth == 0 { return } }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
                if depth <= 0 { return }
            }
        }
        if inString || depth > 0 { throw fatal("the file ends inside record \(recordNumber)") }
    }

    private mutating func finish() throws(BackendError) {
        phase = .finished
        if try nextNonSpace() != nil { throw fatal("unexpected data after the array's closing ']'") }
    }

    private func skipByteOrderMark() throws(BackendError) {
        guard try bytes.peek() == 0xEF else { return }
        for expected: UInt8 in [0xEF, 0xBB, 0xBF] where try bytes.next() != expected {
            throw fatal("the file is not UTF-8 JSON")
        }
    }

    private func nextNonSpace() throws(BackendError) -> UInt8? {
        while let byte = try bytes.next() {
            if !byte.isJSONWhitespace { return byte }
        }
        return nil
    }

    private func peekNonSpace() throws(BackendError) -> UInt8? {
        while let byte = try bytes.peek() {
            if !byte.isJSONWhitespace { return byte }
            _ = try bytes.next()
        }
        return nil
    }

    private func fatal(_ reason: String) -> BackendError {
        .invalidRecord(position: "byte \(bytes.offset)", reason: reason)
    }
}
