import QuarryJSON
import QuarrySearchContract

/// One attribute's facet values as a frontend lists them (protocol/sessions.md,
/// "Selection and refinement lists"): each with `count` and `isRefined`,
/// selected values with no match at count 0, in the searcher's order.
public struct RefinementList: Sendable, Equatable {
    public struct Item: Sendable, Equatable {
        public var value: String
        public var count: Int
        public var isRefined: Bool
    }

    public var items: [Item]

    /// `counts` as the backend returned them; `isRefined` tells selected values (lower-cased);
    /// `selected` are the selected values as written, added at count 0 when the counts lack them.
    public init(counts: [FacetCounts.Value], isRefined: (String) -> Bool, selected: [String], order: [FacetOrder]) {
        var items = counts.map { Item(value: $0.value, count: $0.count, isRefined: isRefined($0.value)) }
        let present = Set(counts.map { $0.value.lowercased() })
        for value in selected where !present.contains(value.lowercased()) {
            items.append(Item(value: value, count: 0, isRefined: true))
        }
        self.items = items.sorted { Self.precedes($0, $1, order: order) }
    }

    static func precedes(_ lhs: Item, _ rhs: Item, order: [FacetOrder]) -> Bool {
        for criterion in order {
            switch criterion {
            case .isRefined where lhs.isRefined != rhs.isRefined: return lhs.isRefined
            case .count where lhs.count != rhs.count: return lhs.count > rhs.count
            case .alpha where lhs.value != rhs.value:
                return lhs.value.unicodeScalars.lexicographicallyPrecedes(rhs.value.unicodeScalars)
            default: continue
            }
        }
        return lhs.value.unicodeScalars.lexicographicallyPrecedes(rhs.value.unicodeScalars)
    }

    public var json: JSON {
        .array(items.map { ["value": .string($0.value), "count": JSON($0.count), "isRefined": .bool($0.isRefined)] })
    }
}
