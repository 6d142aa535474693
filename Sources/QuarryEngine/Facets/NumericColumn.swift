import QuarrySearchContract

/// For one numeric path of one segment: each document's numbers, NaN where it has none.
///
/// Single-valued columns are one contiguous number per ordinal; a path holding arrays of numbers
/// keeps a CSR (`starts`) instead. The numbers take the narrowest exact form (`NumberArray`).
struct NumericColumn: Sendable {
    let path: String
    /// Empty when single-valued: `self[d]` is document `d`'s number.
    let starts: StoredArray<UInt32>
    let numbers: NumberArray

    init(path: String, starts: StoredArray<UInt32>, numbers: NumberArray) {
        self.path = path
        self.starts = starts
        self.numbers = numbers
    }

    init(path: String, starts: StoredArray<UInt32>, values: [Double]) {
        self.init(path: path, starts: starts, numbers: NumberArray(values))
    }

    var isSingleValued: Bool { starts.isEmpty }

    var count: Int { numbers.count }

    @inline(__always)
    subscript(i: Int) -> Double { numbers[i] }

    /// Whether any of document `d`'s numbers satisfies `test`.
    @inline(__always)
    func any(_ d: Int, _ test: (Double) -> Bool) -> Bool {
        if starts.isEmpty { return d < count && !self[d].isNaN && test(self[d]) }
        guard d + 1 < starts.count else { return false }
        for i in Int(starts[d])..<Int(starts[d + 1]) where test(self[i]) { return true }
        return false
    }
}

/// Each document's `_geoloc` points: `starts[d]..<starts[d + 1]` index its coordinates.
struct GeoColumn: Sendable {
    let starts: StoredArray<UInt32>
    let latitudes: StoredArray<Double>
    let longitudes: StoredArray<Double>

    static let empty = GeoColumn(starts: StoredArray(), latitudes: StoredArray(), longitudes: StoredArray())

    func points(of d: Int) -> Range<Int> { d + 1 < starts.count ? Int(starts[d])..<Int(starts[d + 1]) : 0..<0 }

    /// Meters from `center` to the document's nearest point; nil when it has none.
    func nearest(_ d: Int, to center: (lat: Double, lng: Double)) -> Double? {
        var best: Double? = nil
        for i in points(of: d) {
            let distance = GeoQuery.distance(center.lat, center.lng, latitudes[i], longitudes[i])
            if distance < best ?? .infinity { best = distance }
        }
        return best
    }
}
