#if canImport(Glibc)
import Glibc
#endif
import QuarryEngine
import QuarryJSON
import QuarryRecords
import QuarrySearchContract

/// The import readers' oracle: a file reads as the same records and the same
/// errors whatever the size of the reader's buffer, so no record or error
/// depends on where a 1 MiB read happens to end.
enum ImportFuzzing {
    /// One scratch file per process; libFuzzer runs inputs one at a time.
    private static let path = "/tmp/quarry-fuzz-import-\(getpid())"

    static func run(_ data: [UInt8]) throws(OracleViolation) {
        var input = FuzzBytes(data)
        let format = ImportFormat.allCases[Int(input.byte()) % ImportFormat.allCases.count]
        let bufferSize = 1 + Int(input.byte() % 16)
        let file = input.rest
        guard write(file) else { return }
        let expected = read(format, bufferSize: ImportFileBytes.defaultBufferSize)
        let actual = read(format, bufferSize: bufferSize)
        try expect(actual == expected, """
            \(format) read with a \(bufferSize)-byte buffer differs:
            1 MiB buffer: \(expected)
            small buffer: \(actual)
            """)
    }

    /// Every item the reader yields, rendered, ending with the error that stopped it, if any.
    private static func read(_ format: ImportFormat, bufferSize: Int) -> [String] {
        var items: [String] = []
        do {
            var reader = try format.reader(path: path, bufferSize: bufferSize)
            while let item = try reader.next() {
                switch item {
                case .value(let value, let position, _): items.append("\(position): \(JSONWriter.string(value))")
                case .invalid(let position, let reason): items.append("\(position): invalid: \(reason)")
                }
                // A reader that stops advancing would loop forever.
                if items.count > 100_000 { items.append("too many items"); break }
            }
        } catch {
            items.append("error: \(error)")
        }
        return items
    }

    private static func write(_ bytes: [UInt8]) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        return written == bytes.count
    }
}
