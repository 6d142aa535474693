import QuarryJSON
import QuarrySearchContract

/// Reads RFC 4180 CSV: comma-separated fields, `"quoted"` fields that may hold
/// commas, newlines and `""` for a quote, rows ended by LF or CRLF. The first
/// row names the attributes; each further row is one record.
///
/// Values: a field that is clearly a number becomes one — an optional `-`,
/// then `0` or digits not starting with `0`, then optionally `.` and digits
/// (`42`, `-3.5`; not `007`, `+1`, `1e5`, `1,000`, ` 42`); integers must fit
/// in 64 bits. Every other field stays a string, as does the `objectID`
/// column. An empty field leaves its attribute out of the record. Blank rows
/// are ignored. Positions count physical lines (a quoted field may span
/// several); a column is a field's number in its row.
///
/// Quotes are strict, as RFC 4180 has them (protocol/methods/importFile.md): a
/// quote inside an unquoted field (`5'10"`) is an error, not a character, and
/// so is text after a closing quote. Both usually mean a quote was left
/// unclosed, so a quoted field's errors name the line where its quote opened.
struct CSVReader: FileImportReader {
    let bytes: ImportFileBytes
    private var header: [String]?
    private var line = 1

    init(bytes: ImportFileBytes) {
        self.bytes = bytes
    }

    mutating func next() throws(BackendError) -> ImportItem? {
        if header == nil {
            if try bytes.peek() == 0xEF { _ = try bytes.next(); _ = try bytes.next(); _ = try bytes.next() }
            guard let row = try readRow() else { return nil }
            let fields: [String]
            switch row {
            case .fields(let parsed, _): fields = parsed.map { String(decoding: $0, as: UTF8.self) }
            case .invalid(let position, let reason): throw .invalidRecord(position: position.description, reason: reason)
            }
            if let empty = fields.firstIndex(where: \.isEmpty) {
                throw .invalidRecord(position: "line 1, column \(empty + 1)", reason: "a header field is empty")
            }
            header = fields
        }
        guard let header else { return nil }
        while let row = try readRow() {
            switch row {
            case .invalid(let position, let reason):
                return .invalid(position, reason: reason)
            case .fields(let fields, let startLine):
                if fields.count == 1 && fields[0].isEmpty { continue }
                guard fields.count == header.count else {
                    return .invalid(.line(startLine), reason: "has \(fields.count) fields; the header has \(header.count)")
                }
                var record: JSONObject = [:]
                for (column, field) in fields.enumerated() where !field.isEmpty {
                    guard let text = String(validating: field, as: UTF8.self) else {
                        return .invalid(.lineColumn(startLine, column + 1), reason: "the field is not valid UTF-8")
                    }
                    let name = header[column]
                    record[name] = name == "objectID" ? .string(text) : Self.value(text)
                }
                return .value(.object(record), .line(startLine))
            }
        }
        return nil
    }

    private enum Row {
        case fields([[UInt8]], startLine: Int)
        case invalid(ImportPosition, reason: String)
    }

    /// One row's raw fields, or nil at the end of the file.
    private mutating func readRow() throws(BackendError) -> Row? {
        guard try bytes.peek() != nil else { return nil }
        let startLine = line
        var fields: [[UInt8]] = []
        var field: [UInt8] = []
        while true {
            if try bytes.peek() == UInt8(ascii: "\"") && field.isEmpty {
                _ = try bytes.next()
                let openLine = line
                let position = ImportPosition.lineColumn(openLine, fields.count + 1)
                guard try readQuoted(into: &field) else {
                    return .invalid(position, reason: "the quote that opens this field is never closed (the file ends inside it)")
                }
                let after = try bytes.peek()
                if after != nil && after != UInt8(ascii: ",") && after != UInt8(ascii: "\n") && after != UInt8(ascii: "\r") {
                    let closeLine = line
                    let text = try restOfLine(upTo: 16)
                    try skipRestOfRow()
                    let reason = closeLine == openLine
                        ? "text '\(text)' follows the closing quote of a quoted field; a quote inside a quoted field is written twice (\"\")"
                        : "the quote that opens this field is not closed on this line; the next quote, on line \(closeLine), "
                            + "is followed by '\(text)': a closing quote is probably missing"
                    return .invalid(position, reason: reason)
                }
            }
            guard let byte = try bytes.next() else {
                fields.append(field)
                return .fields(fields, startLine: startLine)
            }
            switch byte {
            case UInt8(ascii: ","):
                fields.append(field)
                field = []
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                if byte == UInt8(ascii: "\r"), try bytes.peek() == UInt8(ascii: "\n") { _ = try bytes.next() }
                line += 1
                fields.append(field)
                return .fields(fields, startLine: startLine)
            case UInt8(ascii: "\""):
                let position = ImportPosition.lineColumn(line, fields.count + 1)
                try skipRestOfRow()
                return .invalid(position, reason: "a quote inside an unquoted field; quote the whole field and write "
                    + "each quote in it twice (\"5'10\"\"\" for 5'10\")")
            default:
                field.append(byte)
            }
        }
    }

    /// Up to `limit` bytes of the current line, for an error message (the line's end is left unread).
    private mutating func restOfLine(upTo limit: Int) throws(BackendError) -> String {
        var text: [UInt8] = []
        while text.count < limit, let byte = try bytes.peek(), byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r") {
            text.append(byte)
            _ = try bytes.next()
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Reads up to the closing quote; false when the file ends first.
    private mutating func readQuoted(into field: inout [UInt8]) throws(BackendError) -> Bool {
        while let byte = try bytes.next() {
            if byte == UInt8(ascii: "\"") {
                guard try bytes.peek() == UInt8(ascii: "\"") else { return true }
                _ = try bytes.next()
            } else if byte == UInt8(ascii: "\n") {
                line += 1
            }
            field.append(byte)
        }
        return false
    }

    private mutating func skipRestOfRow() throws(BackendError) {
        while let byte = try bytes.next() {
            if byte == UInt8(ascii: "\n") { line += 1; return }
        }
    }

    /// The number a clearly numeric field means, else the string itself.
    static func value(_ text: String) -> JSON {
        let utf8 = Array(text.utf8)
        var index = utf8.first == UInt8(ascii: "-") ? 1 : 0
        let digitsStart = index
        while index < utf8.count, (0x30...0x39).contains(utf8[index]) { index += 1 }
        let integerDigits = index - digitsStart
        guard integerDigits > 0, integerDigits == 1 || utf8[digitsStart] != 0x30 else { return .string(text) }
        if index == utf8.count { return Int64(text).map(JSON.int) ?? .string(text) }
        guard utf8[index] == UInt8(ascii: "."), index + 1 < utf8.count else { return .string(text) }
        index += 1
        guard utf8[index...].allSatisfy({ (0x30...0x39).contains($0) }) else { return .string(text) }
        guard let number = Double(text), number.isFinite else { return .string(text) }
        return .double(number)
    }
}
