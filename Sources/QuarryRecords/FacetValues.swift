import QuarryJSON

/// How record values become facet texts and numbers, the same way for building and for filtering
/// (package-visible: the Typesense backend derives its documents with these same rules).
package enum FacetValues {
    package static let tagsAttribute = "_tags"
    package static let geoAttribute = "_geoloc"
    /// Numeric leaves deeper than this many object levels are not columns.
    package static let maxNumericDepth = 4

    /// Every scalar at `path` (arrays flattened; a literal dotted key wins over the nested path).
    package static func leaves(of record: JSONObject, path: String, _ body: (JSON) -> Void) {
        if let value = record[path] { return flatten(value, body) }
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard components.count > 1, let root = record[components[0]] else { return }
        walk(root, components.dropFirst(), body)
    }

    private static func walk(_ value: JSON, _ path: ArraySlice<String>, _ body: (JSON) -> Void) {
        guard let key = path.first else { return flatten(value, body) }
        switch value {
        case .object(let object): if let next = object[key] { walk(next, path.dropFirst(), body) }
        case .array(let elements): for element in elements { walk(element, path, body) }
        default: return
        }
    }

    private static func flatten(_ value: JSON, _ body: (JSON) -> Void) {
        if case .array(let elements) = value { for element in elements { flatten(element, body) } } else { body(value) }
    }

    /// The facet text of a scalar: strings as given, numbers in their shortest form, booleans as words.
    package static func text(of value: JSON) -> String? {
        switch value {
        case .string(let s): s
        case .int(let i): String(i)
        case .double(let d): render(d)
        case .bool(let b): b ? "true" : "false"
        case .null, .array, .object: nil
        }
    }

    package static func render(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    }

    /// Calls `body(path, number)` for every numeric leaf, objects walked to `maxNumericDepth`.
    package static func numbers(of record: JSONObject, _ body: (String, Double) -> Void) {
        for (key, value) in record where key != "objectID" { numbers(value, path: key, depth: 1, body) }
    }

    private static func numbers(_ value: JSON, path: String, depth: Int, _ body: (String, Double) -> Void) {
        switch value {
        case .int(let i): body(path, Double(i))
        case .double(let d): body(path, d)
        case .array(let elements): for element in elements { numbers(element, path: path, depth: depth, body) }
        case .object(let object) where depth < maxNumericDepth:
            for (key, member) in object { numbers(member, path: path + "." + key, depth: depth + 1, body) }
        default: return
        }
    }

    /// The points of `_geoloc` ({lat, lng} or an array of them); malformed points are skipped.
    package static func geoPoints(of record: JSONObject) -> [(lat: Double, lng: Double)] {
        guard let value = record[geoAttribute] else { return [] }
        let candidates: [JSON] = if case .array(let points) = value { points } else { [value] }
        return candidates.compactMap { point in
            guard let lat = coordinate(point["lat"]), let lng = coordinate(point["lng"]) else { return nil }
            return (lat, lng)
        }
    }

    private static func coordinate(_ value: JSON?) -> Double? {
        guard let value else { return nil }
        if let d = value.doubleValue { return d }
        if let s = value.stringValue { return Double(s) }
        return nil
    }
}
