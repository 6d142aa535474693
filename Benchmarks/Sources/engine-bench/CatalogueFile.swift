import Foundation
import QuarryJSON
import QuarrySearchContract

/// A catalogue written by `catalogue.py`, as the in-process workloads read it.
enum CatalogueFile {
    /// `peer_bench.py`'s settings for the catalogue.
    static func settings() throws -> IndexSettings {
        var settings = IndexSettings()
        try settings.merge([
            "searchableAttributes": ["name", "brand", "description"],
            "attributesForFaceting": ["brand", "categories.lvl0", "tags"],
            "customRanking": ["desc(popularity)"],
        ])
        return settings
    }

    /// The first `limit` records of the NDJSON file at `path` (all of them without a limit), read 1 MiB at a time.
    static func records(_ path: String, limit: Int = .max) throws -> [JSONObject] {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        var records: [JSONObject] = [], pending = Data()
        while records.count < limit, let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            pending.append(chunk)
            var start = pending.startIndex
            while records.count < limit, let end = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                if end > start, case .object(let record) = try JSONParser.parse(pending[start..<end]) { records.append(record) }
                start = pending.index(after: end)
            }
            pending = Data(pending[start...])
        }
        if records.count < limit, !pending.isEmpty, case .object(let record) = try JSONParser.parse(pending) {
            records.append(record)
        }
        return records
    }
}
