/// The file formats `importRecords` reads.
public enum ImportFormat: String, Sendable, CaseIterable {
    /// One JSON array of record objects (Algolia's export format).
    case json
    /// One record object per line (also `.jsonl`).
    case ndjson
    /// RFC 4180 CSV; the header row names the attributes.
    case csv

    /// The format a file name's extension implies, or nil.
    public init?(guessingFrom path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "json": self = .json
        case "ndjson", "jsonl": self = .ndjson
        case "csv": self = .csv
        default: return nil
        }
    }
}
