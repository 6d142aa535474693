import QuarryJSON

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
    private var latitudes: [Double] = []
    private var longitudes: [Double] = []
    private var count = 0

    private struct ColumnBuilder {
        var interned: [String: UInt32] = [:]
        var values: [String] = []
        var flags: [UInt8] = []
        var starts: [UInt32] = [0]
        var ids: [UInt32] = []

        mutating func add(_ text: String, numeric: Bool) {
            let id: UInt32
            if let known = interned[text] {
                id = known
            } else {
                id = UInt32(values.count)
                interned[text] = id
                values.append(text)
                flags.append(0)
            }
            if numeric { flags[Int(id)] = 1 }
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
        let point = FacetValues.geoPoint(of: record)
        latitudes.append(point?.lat ?? .nan)
        longitudes.append(point?.lng ?? .nan)
        count += 1
    }

    /// Adds ordinal `ordinal` of an existing segment's facets.
    mutating func add(_ facets: SegmentFacets, ordinal: Int) {
        for (c, name) in layout.attributes.enumerated() {
            if let column = facets.column(name), ordinal + 1 < column.starts.count {
                for i in Int(column.starts[ordinal])..<Int(column.starts[ordinal + 1]) {
                    let id = Int(column.ids[i])
                    columns[c].add(column.values[id], numeric: column.numericFlags[id] != 0)
                }
            }
            columns[c].starts.append(UInt32(columns[c].ids.count))
        }
        let document = UInt32(count)
        for column in facets.numeric {
            if column.isSingleValued {
                if ordinal < column.values.count, !column.values[ordinal].isNaN { append(column.path, document, column.values[ordinal]) }
            } else if ordinal + 1 < column.starts.count {
                for i in Int(column.starts[ordinal])..<Int(column.starts[ordinal + 1]) { append(column.path, document, column.values[i]) }
            }
        }
        let hasGeo = ordinal < facets.geo.latitudes.count
        latitudes.append(hasGeo ? facets.geo.latitudes[ordinal] : .nan)
        longitudes.append(hasGeo ? facets.geo.longitudes[ordinal] : .nan)
        count += 1
    }

    private mutating func append(_ path: String, _ document: UInt32, _ value: Double) {
        let slot: Int
        if let known = numericPaths[path] {
            slot = known
        } else {
            guard numeric.count < FacetLayout.maxNumericPaths else { return }
            slot = numeric.count
            numericPaths[path] = slot
            numeric.append(NumericBuilder())
        }
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
            result.columns.append(FacetColumn(name: name, values: built.values, numericFlags: built.flags, starts: starts, ids: ids))
        }
        var inverse = [Int](repeating: 0, count: permutation.count)
        for (ordinal, old) in permutation.enumerated() { inverse[old] = ordinal }
        for (path, slot) in numericPaths.sorted(by: { $0.value < $1.value }) {
            result.numeric.append(Self.column(path, numeric[slot], inverse: inverse, permutation: permutation))
        }
        result.geo = GeoColumn(latitudes: permutation.map { latitudes[$0] }, longitudes: permutation.map { longitudes[$0] })
        return result
    }

    private static func column(_ path: String, _ built: NumericBuilder, inverse: [Int], permutation: [Int]) -> NumericColumn {
        let n = permutation.count
        var perDocument = [UInt32](repeating: 0, count: n)
        for d in built.documents { perDocument[Int(d)] += 1 }
        if perDocument.allSatisfy({ $0 <= 1 }) {
            var values = [Double](repeating: .nan, count: n)
            for (d, v) in zip(built.documents, built.values) { values[inverse[Int(d)]] = v }
            return NumericColumn(path: path, starts: [], values: values)
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
        return NumericColumn(path: path, starts: starts, values: values)
    }
}
