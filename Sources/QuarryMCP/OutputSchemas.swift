import QuarryJSON

/// The `outputSchema` of each tool: what its `structuredContent` holds.
enum OutputSchemas {
    static let string: JSON = ["type": "string"]
    static let integer: JSON = ["type": "integer"]
    static let strings: JSON = ["type": "array", "items": ["type": "string"]]

    static func object(_ properties: JSONObject, required: [String]) -> JSON {
        ["type": "object", "properties": .object(properties), "required": .array(required.map(JSON.string))]
    }

    static let hit: JSON = [
        "type": "object", "required": ["objectID"],
        "properties": ["objectID": ["type": "string"]],
        "description": "A record's retrieved attributes; long strings are cut to a snippet around the match.",
    ]

    /// `{attribute: {value: count}}`.
    static let facetCounts: JSON = [
        "type": "object", "additionalProperties": ["type": "object", "additionalProperties": ["type": "integer"]],
    ]

    /// The fields every bounded list carries (see ReplyBudget).
    static let budgetFields: JSONObject = [
        "returnedHits": integer, "omittedHits": integer,
        "note": ["type": "string", "description": "Present when hits were left out to keep the reply small, and how to get them."],
    ]

    static var searchResultProperties: JSONObject {
        var properties: JSONObject = [
            "index": string, "query": string, "filters": string, "nbHits": integer, "page": integer,
            "nbPages": integer, "hitsPerPage": integer, "hits": ["type": "array", "items": hit],
            "facets": facetCounts,
        ]
        properties.merge(budgetFields) { old, _ in old }
        return properties
    }

    static let search = object(searchResultProperties, required: [
        "index", "query", "nbHits", "page", "nbPages", "hitsPerPage", "hits", "returnedHits", "omittedHits",
    ])

    static var multiSearch: JSON {
        var properties = searchResultProperties
        properties["error"] = ["type": "string", "description": "Why this query failed; the others still answer."]
        return object(["results": ["type": "array", "items": object(properties, required: ["index"])]], required: ["results"])
    }

    static let listIndices = object([
        "indices": ["type": "array", "items": object([
            "name": string, "records": integer, "searchableAttributes": strings, "facets": strings, "replicas": strings,
        ], required: ["name", "records", "searchableAttributes", "facets", "replicas"])],
    ], required: ["indices"])

    static let facetValues = object([
        "index": string, "facet": string,
        "facetHits": ["type": "array", "items": object(["value": string, "count": integer], required: ["value", "count"])],
    ], required: ["index", "facet", "facetHits"])

    static let getObjects = object([
        "index": string,
        "objects": ["type": "array", "items": ["type": ["object", "null"]],
                    "description": "One per id asked, in order; null when no record has that id."],
        "returnedObjects": integer, "omittedObjects": integer, "note": string,
    ], required: ["index", "objects", "returnedObjects", "omittedObjects"])

    static var browse: JSON {
        var properties: JSONObject = [
            "index": string, "nbHits": integer, "hits": ["type": "array", "items": hit],
            "cursor": ["type": "string", "description": "Pass it to browse for the next page; absent on the last page."],
        ]
        properties.merge(budgetFields) { old, _ in old }
        return object(properties, required: ["index", "hits", "returnedHits", "omittedHits"])
    }

    static let settings = object(["index": string, "settings": ["type": "object"]], required: ["index", "settings"])

    static let listSessions = object([
        "sessions": ["type": "array", "items": object([
            "session": string, "stateVersion": integer, "attached": integer, "searchers": integer,
        ], required: ["session", "stateVersion", "attached", "searchers"])],
    ], required: ["sessions"])

    static var sessionView: JSON {
        let refinements: JSON = [
            "type": "object",
            "additionalProperties": ["type": "array", "items": object(
                ["value": string, "count": integer, "isRefined": ["type": "boolean"]], required: ["value", "count"])],
        ]
        let result = object([
            "searcher": string, "type": string, "index": string, "nbHits": integer,
            "hits": ["type": "array", "items": hit], "facets": refinements, "attribute": string,
            "facetHits": ["type": "array", "items": object(
                ["value": string, "count": integer, "isRefined": ["type": "boolean"]], required: ["value", "count"])],
            "error": string,
        ], required: ["searcher", "type", "index"])
        var properties: JSONObject = [
            "session": string, "stateVersion": integer, "query": string,
            "filters": ["type": "string", "description": "The session's filters in Algolia syntax."],
            "results": ["type": "array", "items": result],
        ]
        properties.merge(budgetFields) { old, _ in old }
        return object(properties, required: ["session", "stateVersion", "query", "filters", "results", "returnedHits", "omittedHits"])
    }

    static let write = object(["index": string, "objectIDs": strings, "taskID": integer], required: ["index", "objectIDs", "taskID"])

    static let importFile = object([
        "index": string, "imported": integer, "skipped": integer, "skippedReasons": strings,
        "taskID": integer, "durationMS": integer,
    ], required: ["index", "imported"])
}
