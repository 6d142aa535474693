import QuarryJSON
import QuarryRecords

/// What one segment knows for filters, facets, distinct and geo, by ordinal (the segment's order).
struct SegmentFacets: Sendable {
    var columns: [FacetColumn] = []
    var numeric: [NumericColumn] = []
    var geo: GeoColumn = .empty

    static let empty = SegmentFacets()

    func column(_ name: String) -> FacetColumn? { columns.first { $0.name == name } }

    func numericColumn(_ path: String) -> NumericColumn? { numeric.first { $0.path == path } }
}

/// Collects facet values while a `SegmentBuilder` adds documents, then lays them out in the
/// segment's static order.
struct SegmentFacetsBuilder {
    let layout: FacetLayout
    private var columns: [ColumnBuilder]
    private var numericPaths: [String: Int] = [:]
    private var numeric: [NumericBuilder] = []
    private var geoStarts: [UInt32] = [0]
    private var latitudes: [Double] = []
    private var longitudes: [Double] = []
    private var count = 0

    private struct ColumnBuilder {
        var values = FacetValueInterner()
        var starts: [UInt32] = [0]
        var ids: [UInt32] = []

        mutating func add(_ text: String, numeric: Bool) {
            let id = values.intern(text, numeric: numeric)
            // A value held twice by one document counts once.
            if !ids[Int(starts[starts.count - 1])...].contains(id) { ids.append(id) }
        }
    }

    /// Per path: (document index, value) pairs in document order.
    private struct NumericBuilder {
        var documents: [UInt32] = []
        var values: [Double] = []
    }

    init(layout: FacetLayout) {
        self.layout = layout
        columns = layout.attributes.map { _ in ColumnBuilder() }
    }

    mutating func add(record: JSONObject) {
        for (c, name) in layout.attributes.enumerated() {
            FacetValues.leaves(of: record, path: name) { leaf in
                guard let text = FacetValues.text(of: leaf) else { return }
                let isNumber: Bool = switch leaf { case .int, .double: true; default: false }
                columns[c].add(text, numeric: isNumber)
            }
            columns[c].starts.append(UInt32(columns[c].ids.count))
        }
        let document = UInt32(count)
        FacetValues.numbers(of: record) { path, value in append(path, document, value) }
        for point in FacetValues.geoPoints(of: record) {
            latitudes.append(point.lat)
            longitudes.append(point.lng)
        }
        geoStarts.append(UInt32(latitudes.count))
        count += 1
    }

    /// The builder slot of a numeric path; nil past `maxNumericPaths`.
    private mutating func slot(for path: String) -> Int? {
        if let known = numericPaths[path] { return known }
        guard numeric.count < FacetLayout.maxNumericPaths else { return nil }
        numericPaths[path] = numeric.count
        numeric.append(NumericBuilder())
        return numeric.count - 1
    }

    private mutating func append(_ path: String, _ document: UInt32, _ value: Double) {
        guard let slot = slot(for: path) else { return }
        numeric[slot].documents.append(document)
        numeric[slot].values.append(value)
    }

    /// The facets in the segment's order: `permutation[ordinal]` is the document index added.
    func finish(permutation: [Int]) -> SegmentFacets {
        var result = SegmentFacets()
        for (c, name) in layout.attributes.enumerated() {
            let built = columns[c]
            var starts = [UInt32](repeating: 0, count: permutation.count + 1)
            var ids: [UInt32] = []
            ids.reserveCapacity(built.ids.count)
            for (ordinal, old) in permutation.enumerated() {
                ids.append(contentsOf: built.ids[Int(built.starts[old])..<Int(built.starts[old + 1])])
                starts[ordinal + 1] = UInt32(ids.count)
            }
            result.columns.append(FacetColumn(name: name, values: built.values.texts, numericFlags: built.values.flags, starts: StoredArray(starts),
                                              ids: StoredArray(ids)))
        }
        var inverse = [Int](repeating: 0, count: permutation.count)
        for (ordinal, old) in permutation.enumerated() { inverse[old] = ordinal }
        for (path, slot) in numericPaths.sorted(by: { $0.value < $1.value }) {
            result.numeric.append(Self.column(path, numeric[slot], inverse: inverse, permutation: permutation))
        }
        var starts: [UInt32] = [0], lat: [Double] = [], lng: [Double] = []
        lat.reserveCapacity(latitudes.count)
        lng.reserveCapacity(longitudes.count)
        for old in permutation {
            let range = Int(geoStarts[old])..<Int(geoStarts[old + 1])
            lat.append(contentsOf: latitudes[range])
            lng.append(contentsOf: longitudes[range])
            starts.append(UInt32(lat.count))
        }
        // No points, no starts: 4 bytes a document saved for the many indices without `_geoloc`.
        result.geo = GeoColumn(starts: StoredArray(lat.isEmpty ? [] : starts), latitudes: StoredArray(lat),
                               longitudes: StoredArray(lng))
        return result
    }

    private static func column(_ path: String, _ built: NumericBuilder, inverse: [Int], permutation: [Int]) -> NumericColumn {
        let n = permutation.count
        var perDocument = [UInt32](repeating: 0, count: n)
        for d in built.documents { perDocument[Int(d)] += 1 }
        if perDocument.allSatisfy({ $0 <= 1 }) {
            var values = [Double](repeating: .nan, count: n)
            for (d, v) in zip(built.documents, built.values) { values[inverse[Int(d)]] = v }
            return NumericColumn(path: path, starts: StoredArray(), values: values)
        }
        var starts = [UInt32](repeating: 0, count: n + 1)
        for ordinal in 0..<n { starts[ordinal + 1] = starts[ordinal] + perDocument[permutation[ordinal]] }
        var cursor = starts
        var values = [Double](repeating: .nan, count: built.values.count)
        for (d, v) in zip(built.documents, built.values) {
            let ordinal = inverse[Int(d)]
            values[Int(cursor[ordinal])] = v
            cursor[ordinal] += 1
        }
        return NumericColumn(path: path, starts: StoredArray(starts), values: values)
    }
}
