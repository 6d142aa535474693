import QuarryJSON

/// What the filter evaluator needs from a record: the values at an attribute path.
///
/// `path` is dotted for nested attributes (`author.name`). Implementations
/// return every value found there with arrays flattened, so that an array
/// attribute matches when any of its elements does; an empty array means the
/// record has no such attribute.
public protocol FilterableRecord {
    func values(at path: String) -> [JSON]
}

/// A record held as a JSON object, for tests and simple callers.
///
/// A key containing dots is found as written before the path is split, and
/// arrays of objects are walked element by element (`authors.name` reads the
/// name of every author), as Algolia does.
public struct JSONRecordValues: FilterableRecord, Sendable, Hashable {
    public var object: JSONObject

    public init(_ object: JSONObject) {
        self.object = object
    }

    public func values(at path: String) -> [JSON] {
        var found: [JSON] = []
        if let value = object[path] {
            Self.flatten(value, into: &found)
            return found
        }
        let segments = path.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count > 1 else { return [] }
        Self.walk(.object(object), segments[...], into: &found)
        return found
    }

    private static func walk(_ value: JSON, _ segments: ArraySlice<Substring>, into found: inout [JSON]) {
        guard let segment = segments.first else {
            flatten(value, into: &found)
            return
        }
        switch value {
        case .object(let object):
            if let child = object[String(segment)] { walk(child, segments.dropFirst(), into: &found) }
        case .array(let elements):
            for element in elements { walk(element, segments, into: &found) }
        default:
            return
        }
    }

    private static func flatten(_ value: JSON, into found: inout [JSON]) {
        if case .array(let elements) = value {
            for element in elements { flatten(element, into: &found) }
        } else {
            found.append(value)
        }
    }
}
