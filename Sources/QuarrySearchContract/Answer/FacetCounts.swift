import QuarryJSON

/// One counted attribute of an answer: its values with their counts, in the order the response
/// lists them (best first, or alphabetical when asked).
public struct FacetCounts: Sendable, Equatable {
    public var attribute: String
    public var values: [Value]

    public struct Value: Sendable, Equatable {
        public var value: String
        public var count: Int

        public init(value: String, count: Int) {
            self.value = value
            self.count = count
        }
    }

    public init(attribute: String, values: [(String, Int)]) {
        self.attribute = attribute
        self.values = values.map { Value(value: $0.0, count: $0.1) }
    }

    /// `{value: count}`.
    public var json: JSONObject {
        var object = JSONObject(minimumCapacity: values.count)
        for value in values { object[value.value] = JSON(value.count) }
        return object
    }
}

/// `facets_stats` of one numeric attribute: over the matching records' values.
public struct FacetStats: Sendable, Equatable {
    public var attribute: String
    public var min: Double
    public var max: Double
    public var avg: Double
    public var sum: Double

    public init(attribute: String, min: Double, max: Double, avg: Double, sum: Double) {
        self.attribute = attribute
        self.min = min
        self.max = max
        self.avg = avg
        self.sum = sum
    }

    /// Whole numbers as integers, as Algolia writes them.
    public var json: JSONObject {
        func number(_ d: Double) -> JSON { d == d.rounded() && abs(d) < 1e15 ? .int(Int64(d)) : .double(d) }
        return ["min": number(min), "max": number(max), "avg": number(avg), "sum": number(sum)]
    }
}
