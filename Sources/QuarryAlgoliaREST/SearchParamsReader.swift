import QuarryJSON

/// Algolia's search parameters, given as an object, as a URL-encoded `params` string (what
/// InstantSearch.js sends), or both, become the members of one JSON-RPC params object.
enum SearchParamsReader {
    /// Parameters whose value is a list; in a `params` string Algolia accepts them comma-separated too.
    static let listParameters: Set<String> = [
        "facets", "attributesToRetrieve", "attributesToHighlight", "attributesToSnippet",
        "restrictSearchableAttributes", "disableTypoToleranceOnWords",
    ]

    /// The body's members but `params`, then those of its `params` string (the string wins, as in Algolia).
    static func merged(_ body: JSON?, dropping: Set<String> = []) throws(AlgoliaBadRequest) -> JSONObject {
        guard let body else { return [:] }
        guard var object = body.objectValue else {
            throw AlgoliaBadRequest(message: "the body must be a JSON object, not \(body.kindName)")
        }
        let params = object.removeValue(forKey: "params")
        switch params {
        case nil, .null?:
            break
        case .string(let text)?:
            for (name, value) in fromString(text) { object[name] = value }
        case .object(let inline)?:
            for (name, value) in inline { object[name] = value }
        case let other?:
            throw AlgoliaBadRequest(message: "params must be a URL-encoded string or an object, not \(other.kindName)")
        }
        for name in dropping { object.removeValue(forKey: name) }
        return object
    }

    /// `query=shoe&facets=%5B%22brand%22%5D&page=0`: values that are JSON arrays or objects are parsed;
    /// a list parameter given as plain text is split on commas; everything else stays a string, which
    /// search accepts for numbers and booleans too (protocol/methods/search.md).
    static func fromString(_ text: String) -> JSONObject {
        var object: JSONObject = [:]
        for (name, text) in URLEncoding.items(Substring(text)).sorted(by: { $0.key < $1.key }) {
            object[name] = value(of: name, text)
        }
        return object
    }

    static func value(of name: String, _ text: String) -> JSON {
        if let first = text.first, first == "[" || first == "{", let parsed = try? JSONParser.parse(text) {
            return parsed
        }
        if listParameters.contains(name) {
            return .array(text.split(separator: ",").map { .string(String($0)) })
        }
        return .string(text)
    }
}
