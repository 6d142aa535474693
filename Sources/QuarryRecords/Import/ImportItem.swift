import QuarryJSON
import QuarrySearchContract

/// Where a record sits in an import file, rendered only when an error needs it.
package enum ImportPosition: Sendable, Equatable, CustomStringConvertible {
    case record(Int)
    case line(Int)
    case lineColumn(Int, Int)

    package var description: String {
        switch self {
        case .record(let number): "record \(number)"
        case .line(let number): "line \(number)"
        case .lineColumn(let line, let column): "line \(line), column \(column)"
        }
    }
}

/// One step of an import reader: a parsed value (not yet checked to be a
/// record), or a record that could not be read, which the reader has skipped
/// past so reading can go on. A value may come with the JSON text it was parsed
/// from, which the store can keep instead of encoding the value again.
package enum ImportItem: Sendable {
    case value(JSON, ImportPosition, text: [UInt8]? = nil)
    case invalid(ImportPosition, reason: String)
}

/// A streaming reader of one import format. `next()` throws only when the
/// file cannot be read on at all (I/O error, broken structure); a bad record
/// it can step over is an `.invalid` item.
package protocol ImportReader {
    mutating func next() throws(BackendError) -> ImportItem?
    /// Bytes of the file read up to the last item returned, and in all: an import's progress.
    var bytesRead: Int64 { get }
    var totalBytes: Int64 { get }
}

/// The readers over a file's bytes report its offset.
protocol FileImportReader: ImportReader {
    var bytes: ImportFileBytes { get }
}

extension FileImportReader {
    package var bytesRead: Int64 { bytes.offset }
    package var totalBytes: Int64 { bytes.totalBytes }
}

extension ImportFormat {
    /// `bufferSize` is for tests and fuzzing, which move the buffer's edges.
    package func reader(path: String, bufferSize: Int = ImportFileBytes.defaultBufferSize) throws(BackendError)
        -> any ImportReader
    {
        let bytes = try ImportFileBytes(path: path, bufferSize: bufferSize)
        switch self {
        case .json: return JSONArrayReader(bytes: bytes)
        case .ndjson: return NDJSONReader(bytes: bytes)
        case .csv: return CSVReader(bytes: bytes)
        }
    }
}
