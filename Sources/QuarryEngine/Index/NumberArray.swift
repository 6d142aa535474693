/// Numbers a segment keeps (sort keys, numeric facet columns), saved in the narrowest form that holds
/// every one of them exactly: `Int32`s (counts, years), else `Float`s (ratings), else
/// `Double`s. Read back as the `Double`s they were, bit for bit, NaN for none.
struct NumberArray: RandomAccessCollection, Sendable {
    /// One of the three arrays; the other two are empty.
    let doubles: StoredArray<Double>
    let floats: StoredArray<Float>
    let integers: StoredArray<Int32>

    init(doubles: StoredArray<Double>, floats: StoredArray<Float>, integers: StoredArray<Int32>) {
        self.doubles = doubles
        self.floats = floats
        self.integers = integers
    }

    /// Keeps `values` in the narrowest form that loses nothing, not even a zero's sign.
    init(_ values: [Double]) {
        let integral = values.allSatisfy { value in
            value.isNaN || Int32(exactly: value).map { $0 != .min && Double($0).bitPattern == value.bitPattern } ?? false
        }
        if integral {
            self.init(doubles: StoredArray(), floats: StoredArray(), integers: StoredArray(values.map { $0.isNaN ? Int32.min : Int32($0) }))
        } else if values.allSatisfy({ $0.isNaN || Double(Float($0)).bitPattern == $0.bitPattern }) {
            self.init(doubles: StoredArray(), floats: StoredArray(values.map { Float($0) }), integers: StoredArray())
        } else {
            self.init(doubles: StoredArray(values), floats: StoredArray(), integers: StoredArray())
        }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { Swift.max(doubles.count, floats.count, integers.count) }

    @inline(__always)
    subscript(i: Int) -> Double {
        !integers.isEmpty ? integers[i].number : !floats.isEmpty ? floats[i].number : doubles[i]
    }

    /// Whether no more than one form holds numbers, as a file read must be checked for.
    var isWellFormed: Bool { [doubles.isEmpty, floats.isEmpty, integers.isEmpty].filter { !$0 }.count <= 1 }

    var heapBytes: Int { doubles.heapBytes + floats.heapBytes + integers.heapBytes }
    var mappedBytes: Int { doubles.mappedBytes + floats.mappedBytes + integers.mappedBytes }
    var isMapped: Bool { isEmpty || doubles.isMapped || floats.isMapped || integers.isMapped }

    func write(to writer: inout BinaryWriter) {
        writer.write(array: doubles)
        writer.write(array: floats)
        writer.write(array: integers)
    }

    static func read(from reader: inout BinaryReader) throws(DerivedIndexError) -> NumberArray {
        let numbers = NumberArray(doubles: try reader.readStored(of: Double.self), floats: try reader.readStored(of: Float.self),
                                  integers: try reader.readStored(of: Int32.self))
        guard numbers.isWellFormed else { throw .corrupt("numbers saved in two forms at once") }
        return numbers
    }
}

/// A number as a `NumberArray` saves it, read back as the `Double` it was (NaN for none).
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
