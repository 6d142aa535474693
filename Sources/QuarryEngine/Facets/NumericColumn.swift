import QuarrySearchContract

/// For one numeric path of one segment: each document's numbers, NaN where it has none.
///
/// Single-valued columns are one contiguous number per ordinal; a path holding arrays of numbers
/// keeps a CSR (`starts`) instead. The numbers are saved in the narrowest form that holds every one
/// of them exactly: `Int32`s (counts, years, prices in cents), else `Float`s (ratings), else `Double`s.
struct NumericColumn: Sendable {
    let path: String
    /// Empty when single-valued: `self[d]` is document `d`'s number.
    let starts: StoredArray<UInt32>
    /// The numbers: one of the three arrays, the others empty.
    let doubles: StoredArray<Double>
    let floats: StoredArray<Float>
    let integers: StoredArray<Int32>

    init(path: String, starts: StoredArray<UInt32>, doubles: StoredArray<Double>, floats: StoredArray<Float>, integers: StoredArray<Int32>) {
        self.path = path
        self.starts = starts
        self.doubles = doubles
        self.floats = floats
        self.integers = integers
    }

    /// Keeps `values` in the narrowest form that loses nothing, not even a zero's sign.
    init(path: String, starts: StoredArray<UInt32>, values: [Double]) {
        let integral = values.allSatisfy { value in
            value.isNaN || Int32(exactly: value).map { $0 != .min && Double($0).bitPattern == value.bitPattern } ?? false
        }
        if integral {
            self.init(path: path, starts: starts, doubles: StoredArray(), floats: StoredArray(),
                      integers: StoredArray(values.map { $0.isNaN ? Int32.min : Int32($0) }))
        } else if values.allSatisfy({ $0.isNaN || Double(Float($0)).bitPattern == $0.bitPattern }) {
            self.init(path: path, starts: starts, doubles: StoredArray(), floats: StoredArray(values.map { Float($0) }), integers: StoredArray())
        } else {
            self.init(path: path, starts: starts, doubles: StoredArray(values), floats: StoredArray(), integers: StoredArray())
        }
    }

    var isSingleValued: Bool { starts.isEmpty }

    var count: Int { max(doubles.count, floats.count, integers.count) }

    @inline(__always)
    subscript(i: Int) -> Double {
        !integers.isEmpty ? integers[i].number : !floats.isEmpty ? floats[i].number : doubles[i]
    }

    /// Whether any of document `d`'s numbers satisfies `test`.
    @inline(__always)
    func any(_ d: Int, _ test: (Double) -> Bool) -> Bool {
        if starts.isEmpty { return d < count && !self[d].isNaN && test(self[d]) }
        guard d + 1 < starts.count else { return false }
        for i in Int(starts[d])..<Int(starts[d + 1]) where test(self[i]) { return true }
        return false
    }
}

/// A number as a numeric column saves it, read back as the `Double` it was (NaN for none).
protocol StoredNumber: BitwiseCopyable {
    var number: Double { get }
}

extension Double: StoredNumber {
    var number: Double { self }
}

extension Float: StoredNumber {
    var number: Double { Double(self) }
}

extension Int32: StoredNumber {
    /// `Int32.min` stands for no number.
    var number: Double { self == .min ? .nan : Double(self) }
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
