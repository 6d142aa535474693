import QuarryJSON
import QuarrySearchContract
@testable import QuarryEngine

// These tests ask in Algolia's JSON, as an edge receives it: each call reads it once into the
// typed query (`SearchQuery(json:)`), as the server's handlers do, and reads answers as a
// connection is sent them (UTF-16 match ranges unless another encoding is named).
extension SearchResponse {
    /// As a UTF-16 connection is sent it.
    func json() -> JSON { json(in: .utf16) }

    /// The response's members beyond hits, counts and pages, as the wire carries them.
    var extra: JSONObject {
        let basic: Set<String> = ["hits", "nbHits", "page", "nbPages", "hitsPerPage", "exhaustiveNbHits", "exhaustiveTypo", "exhaustive",
                                  "query", "params", "processingTimeMS"]
        return members(hits: .null).filter { !basic.contains($0.key) }
    }
}

extension FacetValuesResponse {
    subscript(key: String) -> JSON? { json[key] }
}

extension SearchHit {
    subscript(key: String) -> JSON? { json(in: .utf16)[key] }
}

extension Engine {
    func search(index: String, parameters: JSONObject, positionEncoding: PositionEncoding = .utf16) throws(BackendError) -> JSON {
        try search(index: index, query: try SearchQuery(json: parameters)).json(in: positionEncoding)
    }

    func searchForFacetValues(index: String, attribute: String, parameters: JSONObject) throws(BackendError) -> JSON {
        .object(try searchForFacetValues(index: index, query: try FacetValueQuery(attribute: attribute, json: parameters)).json)
    }

    func browse(index: String, parameters: JSONObject, cursor: String?, hitsPerPage: Int? = nil, attributesToRetrieve: [String]? = nil)
        throws(BackendError) -> BrowsePage
    {
        try browse(index: index, from: try BrowsePosition(cursor: cursor, parameters: parameters), hitsPerPage: hitsPerPage,
                   attributesToRetrieve: attributesToRetrieve)
    }

    func deleteBy(index: String, parameters: JSONObject) throws(BackendError) -> WriteReceipt {
        try deleteBy(index: index, query: try SearchQuery(json: parameters))
    }
}

extension IndexSettings {
    /// A setting as `getSettings` answers it.
    subscript(key: String) -> JSON? { json()[key] }
}
