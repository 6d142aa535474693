import QuarryJSON
import QuarryText

/// Which value of the record is element i of a searchable `s_` field?
///
/// Walks the record exactly as `SearchableLayout.forEachValue` does (slot by slot; objects followed
/// and arrays fanned out along the slot's path, then every string and number leaf in order), but
/// also names each leaf by the dotted path `Highlighter.mirror` gives it (`tags.2`, `brand.name`).
/// `DocumentBuilder` fills the fields in that order, so the i-th leaf of a slot is element i.
enum HighlightLeaves {
    struct Leaf {
        /// The `s_` field, and the leaf's index in its array.
        let field: String
        let element: Int
        /// As `Highlighter.mirror` names it.
        let path: String
        /// `SearchableLayout.text(of:)`, as stored in the field.
        let text: String
    }

    /// The leaves of the slots `searched` accepts (by slot name), slot by slot.
    static func leaves(of record: JSONObject, layout: SearchableLayout, searched: (String) -> Bool) -> [Leaf] {
        var slots: [(name: String, values: [(String, JSON)])] = []
        if layout.isDynamic {
            for (key, value) in record where key != "objectID" {
                var values: [(String, JSON)] = []
                leaves(of: value, path: key) { values.append(($0, $1)) }
                slots.append((key, values))
            }
        } else {
            for name in layout.names {
                let components = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                guard let first = components.first, let root = record[first] else { continue }
                var values: [(String, JSON)] = []
                resolve(root, components.dropFirst(), path: first) { path, value in
                    leaves(of: value, path: path) { values.append(($0, $1)) }
                }
                slots.append((name, values))
            }
        }
        var result: [Leaf] = [], fields = Set<String>()
        for slot in slots {
            let field = FieldNames.searchable(slot.name)
            // Two slots can name one path; the document keeps the first (DocumentBuilder).
            guard searched(slot.name), fields.insert(field).inserted else { continue }
            var element = 0
            for (path, value) in slot.values {
                guard let text = SearchableLayout.text(of: value) else { continue }
                result.append(Leaf(field: field, element: element, path: path, text: text))
                element += 1
            }
        }
        return result
    }

    /// `SearchableLayout.resolve`, keeping the path.
    static func resolve(_ value: JSON, _ components: ArraySlice<String>, path: String, _ body: (String, JSON) -> Void) {
        guard let key = components.first else { return body(path, value) }
        switch value {
        case .object(let object):
            if let next = object[key] { resolve(next, components.dropFirst(), path: "\(path).\(key)", body) }
        case .array(let elements):
            for (i, element) in elements.enumerated() { resolve(element, components, path: "\(path).\(i)", body) }
        default:
            return
        }
    }

    /// `SearchableLayout.leaves`, keeping the path.
    static func leaves(of value: JSON, path: String, _ body: (String, JSON) -> Void) {
        switch value {
        case .string, .int, .double: body(path, value)
        case .array(let elements): for (i, element) in elements.enumerated() { leaves(of: element, path: "\(path).\(i)", body) }
        case .object(let object): for (key, member) in object { leaves(of: member, path: "\(path).\(key)", body) }
        case .null, .bool: return
        }
    }
}
