/// How a segment's facet values are saved in the derived file, after its search structures.
///
/// Per text column: name, value texts (UTF-8 bytes and offsets), numeric flags, each document's value
/// id (`FacetColumn.singles`, empty when documents hold lists), document starts and value ids (empty
/// when they do not), then each value's documents (`ValueDocuments`: counts, offsets, bytes). Per
/// numeric column: path, starts (empty when single-valued), the numbers (`NumberArray`). Then the geo
/// points: starts per document (empty when there are none), latitudes, longitudes. The lookups are
/// rebuilt on reading.
extension SegmentFacets {
    func write(to writer: inout BinaryWriter) {
        writer.write(UInt64(columns.count))
        for column in columns {
            writer.shelve(column)
            Self.write(strings: [column.name], to: &writer)
            Self.write(strings: column.values, to: &writer)
            writer.write(array: column.numericFlags)
            // One form is empty: the singles, or the starts and ids.
            writer.write(array: column.singles)
            writer.write(array: column.starts)
            writer.write(array: column.ids)
            writer.write(array: column.valueDocuments.starts)
            writer.write(array: column.valueDocuments.offsets)
            writer.write(array: column.valueDocuments.bytes)
        }
        writer.write(UInt64(numeric.count))
        for column in numeric {
            Self.write(strings: [column.path], to: &writer)
            writer.write(array: column.starts)
            column.numbers.write(to: &writer)
        }
        writer.write(array: geo.latitudes.isEmpty ? StoredArray() : geo.starts)
        writer.write(array: geo.latitudes)
        writer.write(array: geo.longitudes)
    }

    static func read(from reader: inout BinaryReader, documents n: Int) throws(DerivedIndexError) -> SegmentFacets {
        var facets = SegmentFacets()
        let columnCount = try reader.readInt(max: 1 << 16)
        for _ in 0..<columnCount {
            // A save's read-back takes what the column derives (texts, lookups) from the column saved.
            let saved: FacetColumn? = reader.shelved()
            let name = try readStrings(&reader, as: saved.map { [$0.name] }).first ?? ""
            let values = try readStrings(&reader, as: saved?.values)
            let flags = try reader.readArray(of: UInt8.self)
            let singles = try reader.readStored(of: UInt16.self)
            let starts = try reader.readStored(of: UInt32.self)
            let ids = try reader.readStored(of: UInt32.self)
            let valueStarts = try reader.readStored(of: UInt32.self), valueOffsets = try reader.readStored(of: UInt32.self)
            let valueDocuments = ValueDocuments(starts: valueStarts, offsets: valueOffsets, bytes: try reader.readStored(of: UInt8.self),
                                                documents: n)
            let held: FacetColumn.DocumentValues, heldCount: Int
            if starts.isEmpty {
                guard singles.count == n || singles.isEmpty && values.isEmpty, ids.isEmpty, values.count < Int(UInt16.max),
                      singles.allSatisfy({ $0 == .max || Int($0) < values.count })
                else { throw .corrupt("inconsistent facet column '\(name)'") }
                held = .singles(singles)
                heldCount = singles.reduce(0) { $0 + ($1 == .max ? 0 : 1) }
            } else {
                guard singles.isEmpty, starts.count == n + 1, starts.last.map({ Int($0) == ids.count }) ?? false,
                      zip(starts, starts.dropFirst()).allSatisfy({ $0 <= $1 }), ids.allSatisfy({ Int($0) < values.count })
                else { throw .corrupt("inconsistent facet column '\(name)'") }
                held = .lists(starts: starts, ids: ids)
                heldCount = ids.count
            }
            guard flags.count == values.count, valueDocuments.isWellFormed(valueCount: values.count, held: heldCount)
            else { throw .corrupt("inconsistent facet column '\(name)'") }
            if let saved, saved.name == name, saved.values.count == values.count, saved.documentCount == n {
                facets.columns.append(FacetColumn(documents: held, valueDocuments: valueDocuments, derivedAs: saved))
            } else {
                facets.columns.append(FacetColumn(name: name, values: values, numericFlags: flags, documents: held, count: n,
                                                  valueDocuments: valueDocuments))
            }
        }
        let numericCount = try reader.readInt(max: 1 << 16)
        for _ in 0..<numericCount {
            let path = try readStrings(&reader).first ?? ""
            let starts = try reader.readStored(of: UInt32.self)
            let numbers = try NumberArray.read(from: &reader)
            let count = numbers.count
            let valid = (starts.isEmpty ? count == n
                : starts.count == n + 1 && starts.last.map({ Int($0) == count }) ?? false
                    && zip(starts, starts.dropFirst()).allSatisfy({ $0 <= $1 }))
            guard valid else { throw .corrupt("inconsistent numeric column '\(path)'") }
            facets.numeric.append(NumericColumn(path: path, starts: starts, numbers: numbers))
        }
        let starts = try reader.readStored(of: UInt32.self)
        let latitudes = try reader.readStored(of: Double.self), longitudes = try reader.readStored(of: Double.self)
        guard longitudes.count == latitudes.count, starts.isEmpty && latitudes.isEmpty
                || starts.count == n + 1 && starts.first == 0 && starts.last.map({ Int($0) == latitudes.count }) ?? false
                    && zip(starts, starts.dropFirst()).allSatisfy({ $0 <= $1 })
        else { throw .corrupt("inconsistent geo columns") }
        facets.geo = GeoColumn(starts: starts, latitudes: latitudes, longitudes: longitudes)
        return facets
    }

    private static func write(strings: [String], to writer: inout BinaryWriter) {
        var bytes: [UInt8] = [], offsets: [UInt32] = [0]
        for s in strings {
            bytes.append(contentsOf: s.utf8)
            offsets.append(UInt32(bytes.count))
        }
        writer.write(array: bytes)
        writer.write(array: offsets)
    }

    /// The strings of a table; `written`, the ones it was written from, when the reader has them (a save's
    /// read-back), rather than new copies.
    private static func readStrings(_ reader: inout BinaryReader, as written: [String]? = nil) throws(DerivedIndexError) -> [String] {
        let bytes = try reader.readArray(of: UInt8.self), offsets = try reader.readArray(of: UInt32.self)
        guard let first = offsets.first, first == 0, offsets.last.map({ Int($0) == bytes.count }) ?? false,
              zip(offsets, offsets.dropFirst()).allSatisfy({ $0 <= $1 })
        else { throw .corrupt("inconsistent string table") }
        if let written, written.count == offsets.count - 1 { return written }
        return (0..<offsets.count - 1).map { i in
            String(decoding: bytes[Int(offsets[i])..<Int(offsets[i + 1])], as: UTF8.self)
        }
    }
}
