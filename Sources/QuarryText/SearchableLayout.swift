import QuarryJSON
import QuarrySearchContract

/// Which parts of a record are searched, in which slot, and how does each slot rank?
///
/// A slot is one searchable path. With `searchableAttributes` set, slots follow its order and each
/// takes the rank of its entry (`"a,b"` shares one rank). Left empty, every top-level attribute of a
/// record is a slot in record order, ranked by that order (so slots mean different keys per record).
/// Shared (QuarryText) so that the Typesense backend indexes and highlights exactly these values.
package struct SearchableLayout: Sendable {
    package let isDynamic: Bool
    /// Per static slot: the dotted path, its components, rank and whether position counts.
    package let names: [String]
    package let components: [[String]]
    package let ranks: [Int]
    @usableFromInline let ordered: [Bool]
    package let typoDisabledAttributes: Set<String>

    package init(settings: IndexSettings) {
        var names: [String] = [], components: [[String]] = [], ranks: [Int] = [], ordered: [Bool] = []
        for (rank, entry) in settings.searchableAttributes.enumerated() {
            for path in entry.paths {
                let trimmed = path.trimmingSpaces
                guard !trimmed.isEmpty else { continue }
                names.append(trimmed)
                components.append(trimmed.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
                ranks.append(rank)
                ordered.append(entry.ordered)
            }
        }
        self.isDynamic = names.isEmpty
        self.names = names
        self.components = components
        self.ranks = ranks
        self.ordered = ordered
        self.typoDisabledAttributes = Set(settings.disableTypoToleranceOnAttributes)
    }

    /// Slots past the last path (or past 31, see `Location`) answer as the last one. Inlinable, as
    /// `isOrdered`: the engine's ranking asks for every matched word, from another module.
    @inlinable package func rank(ofSlot slot: Int) -> Int { isDynamic ? slot : ranks[min(slot, ranks.count - 1)] }

    @inlinable package func isOrdered(slot: Int) -> Bool { isDynamic ? true : ordered[min(slot, ordered.count - 1)] }

    /// Calls `body(slot, attributeName, value)` for each searchable value of `record`, slot by slot;
    /// `value` is a string or number leaf, arrays and objects flattened in order.
    package func forEachValue(of record: JSONObject, _ body: (Int, String, JSON) -> Void) {
        if isDynamic {
            var slot = 0
            for (key, value) in record where key != "objectID" {
                Self.leaves(of: value) { body(slot, key, $0) }
                slot += 1
            }
            return
        }
        for slot in names.indices {
            let path = components[slot]
            guard let first = path.first, let root = record[first] else { continue }
            Self.resolve(root, path.dropFirst()) { leaf in Self.leaves(of: leaf) { body(slot, names[slot], $0) } }
        }
    }

    /// Follows `path` into objects, fanning out over arrays met on the way.
    package static func resolve(_ value: JSON, _ path: ArraySlice<String>, _ body: (JSON) -> Void) {
        guard let key = path.first else { return body(value) }
        switch value {
        case .object(let object): if let next = object[key] { resolve(next, path.dropFirst(), body) }
        case .array(let elements): for element in elements { resolve(element, path, body) }
        default: return
        }
    }

    /// The string and number leaves under `value`, in order.
    package static func leaves(of value: JSON, _ body: (JSON) -> Void) {
        switch value {
        case .string, .int, .double: body(value)
        case .array(let elements): for element in elements { leaves(of: element, body) }
        case .object(let object): for (_, member) in object { leaves(of: member, body) }
        case .null, .bool: return
        }
    }

    /// The text a leaf contributes to the index.
    package static func text(of leaf: JSON) -> String? {
        switch leaf {
        case .string(let s): s
        case .int(let i): String(i)
        case .double(let d): d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
        default: nil
        }
    }
}
