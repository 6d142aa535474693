import QuarrySearchContract

/// For one numeric path of one segment: each document's numbers, NaN where it has none.
///
/// Single-valued columns are one contiguous `Double` per ordinal; a path holding arrays of numbers
/// keeps a CSR (`starts`) instead.
struct NumericColumn: Sendable {
    let path: String
    /// Empty when single-valued: `values[d]` is document `d`'s number.
    let starts: StoredArray<UInt32>
    let values: StoredArray<Double>

    var isSingleValued: Bool { starts.isEmpty }

    /// Whether any of document `d`'s numbers satisfies `test`.
    @inline(__always)
    func any(_ d: Int, _ test: (Double) -> Bool) -> Bool {
        if starts.isEmpty { return d < values.count && !values[d].isNaN && test(values[d]) }
        guard d + 1 < starts.count else { return false }
        for i in Int(starts[d])..<Int(starts[d + 1]) where test(values[i]) { return true }
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
