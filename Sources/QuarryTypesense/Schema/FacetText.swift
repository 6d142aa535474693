import QuarryJSON

/// The engine's value rules for facets, numbers and geo, restated for documents
/// (the engine's `FacetValues` is internal): the texts a facet column holds,
/// the numbers a numeric column holds, and the `_geoloc` points.
enum FacetText {
    /// Numeric leaves deeper than this many object levels are not filterable (the engine's `maxNumericDepth`).
    static let maxNumericDepth = 4

    /// Every scalar at `path`, arrays flattened; a literal dotted key wins over the nested path.
    static func leaves(of record: JSONObject, path: String, _ body: (JSON) -> Void) {
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

    /// Strings as given, numbers in their shortest form (`10`, `10.5`), booleans as words; nil otherwise.
    static func text(of value: JSON) -> String? {
        switch value {
        case .string(let s): s
        case .int(let i): String(i)
        case .double(let d): render(d)
        case .bool(let b): b ? "true" : "false"
        case .null, .array, .object: nil
        }
    }

    static func render(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    }

    /// The number a facet text spells, as the engine's facet column reads it (plain decimal notation).
    static func number(_ text: String) -> Double? {
        guard !text.isEmpty,
              text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x2E || $0 == 0x65 || $0 == 0x45 || $0 == 0x2B })
        else { return nil }
        guard let d = Double(text), d.isFinite else { return nil }
        return d
    }

    /// Calls `body(path, number)` for every numeric leaf outside `objectID`, objects walked to
    /// `maxNumericDepth`, arrays flattened; booleans and numeric strings are not numbers.
    static func numbers(of record: JSONObject, _ body: (String, Double) -> Void) {
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
    static func geoPoints(of record: JSONObject) -> [(lat: Double, lng: Double)] {
        guard let value = record["_geoloc"] else { return [] }
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
