import QuarryJSON
import QuarrySearchContract

/// Reads newline-delimited JSON: one value per line, blank lines ignored,
/// `\r\n` accepted. A line that does not parse is reported and skipped.
struct NDJSONReader: FileImportReader {
    let bytes: ImportFileBytes
    private var lineNumber = 0
    private var line: [UInt8] = []

    init(bytes: ImportFileBytes) {
        self.bytes = bytes
    }

    mutating func next() throws(BackendError) -> ImportItem? {
        while true {
            line.removeAll(keepingCapacity: true)
            guard try bytes.readLine(into: &line) else { return nil }
            lineNumber += 1
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if line.allSatisfy(\.isJSONWhitespace) { continue }
            do {
                return .value(try JSONParser.parse(line), .line(lineNumber), text: line)
            } catch {
                return .invalid(.lineColumn(lineNumber, error.offset + 1), reason: error.reason)
            }
        }
    }
}
