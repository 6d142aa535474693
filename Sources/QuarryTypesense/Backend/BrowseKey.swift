import QuarryJSON

/// Browse order on the cluster. Typesense 0.24 cannot filter strings by
/// range, so a browse cannot resume "after objectID x" as the engine's does.
/// Each document carries instead a 63-bit hash of its objectID (int64,
/// sortable); pages follow that key and a cursor is the last key returned.
/// The guarantee is the engine's (a record that exists throughout a browse is
/// returned once), the order is not the engine's (the order ties rank in).
enum BrowseKey {
    static let field = "_q_key"

    static func key(of objectID: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: stable across processes and machines
        for byte in objectID.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int64(bitPattern: hash >> 1)
    }

    /// The document with its browse key.
    static func stamped(_ document: JSONObject) -> JSONObject {
        guard let id = document["id"]?.stringValue else { return document }
        var stamped = document
        stamped[field] = .int(key(of: id))
        return stamped
    }

    /// The schema field: sortable and filterable.
    static let schemaField: JSON = ["name": .string(field), "type": "int64", "optional": true]
}
