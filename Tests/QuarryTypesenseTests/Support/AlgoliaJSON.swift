import QuarryBackend
import QuarryJSON
import QuarrySearchContract
import QuarryTypesense

// These tests ask in Algolia's JSON, as an edge receives it: each call reads it once into the
// typed query (`SearchQuery(json:)`), as the server's handlers do.
extension IndexBackend {
    func search(index: String, parameters: JSONObject, positionEncoding: PositionEncoding = .utf16) throws(BackendError) -> JSON {
        try search(index: index, query: try SearchQuery(json: parameters)).json(in: positionEncoding)
    }

    func searchForFacetValues(index: String, attribute: String, parameters: JSONObject) throws(BackendError) -> JSON {
        .object(try searchForFacetValues(index: index, query: try FacetValueQuery(attribute: attribute, json: parameters)).json)
    }

    func browse(index: String, parameters: JSONObject, cursor: String?, hitsPerPage: Int? = nil, attributesToRetrieve: [String]? = nil)
        throws(BackendError) -> BrowsePage
    {
        try browse(index: index, from: try BrowsePosition(cursor: cursor, parameters: parameters), hitsPerPage: hitsPerPage, attributesToRetrieve: attributesToRetrieve)
    }

    func deleteBy(index: String, parameters: JSONObject) throws(BackendError) -> WriteReceipt {
        try deleteBy(index: index, query: try SearchQuery(json: parameters))
    }
}

extension TypesenseSearch {
    static func search(
        index: String, parameters: JSONObject, settings: IndexSettings, collection: String, fields: Set<String>,
        positionEncoding: PositionEncoding, highlighting: (any HitHighlighting)?, filter: FilterRendering? = nil,
        multiSearch: MultiSearch
    ) throws(BackendError) -> JSON {
        try search(index: index, query: try SearchQuery(json: parameters), settings: settings, collection: collection, fields: fields,
                   highlighting: highlighting, filter: filter, multiSearch: multiSearch).json(in: positionEncoding)
    }

    static func searchForFacetValues(
        index: String, attribute: String, parameters: JSONObject, settings: IndexSettings, collection: String, fields: Set<String>,
        filter: FilterRendering? = nil, multiSearch: MultiSearch
    ) throws(BackendError) -> JSON {
        .object(try searchForFacetValues(index: index, query: try FacetValueQuery(attribute: attribute, json: parameters), settings: settings,
                                         collection: collection, fields: fields, filter: filter, multiSearch: multiSearch).json)
    }
}

extension HitHighlighter {
    /// The members a hit gets, with `_matchRanges` as a UTF-16 connection is sent them and, beside
    /// them, as UTF-8 and UTF-32 connections are (`_matchRangesUTF8`, `_matchRangesUTF32`).
    func wireMembers(record: JSONObject, typesenseHit: JSONObject, parameters: SearchParameters) -> JSONObject {
        let (members, ranges) = members(record: record, typesenseHit: typesenseHit, parameters: parameters)
        return SearchHit(record: members, ranges: ranges).wireJSON
    }

    func wireMembers(record: JSONObject, highlights: [JSON], parameters: SearchParameters) -> JSONObject {
        let (members, ranges) = members(record: record, highlights: highlights, parameters: parameters)
        return SearchHit(record: members, ranges: ranges).wireJSON
    }
}

extension SearchHit {
    subscript(key: String) -> JSON? { json(in: .utf16)[key] }

    /// The hit in UTF-16, with its ranges in the two other encodings beside.
    var wireJSON: JSONObject {
        var object = json(in: .utf16)
        object["_matchRangesUTF8"] = .object(ranges.json(in: .utf8))
        object["_matchRangesUTF32"] = .object(ranges.json(in: .utf32))
        return object
    }
}

extension IndexSettings {
    /// A setting as `getSettings` answers it.
    subscript(key: String) -> JSON? { json()[key] }
}
