import QuarryJSON

/// Where a browse stopped, and what it was browsing: the next page needs only
/// the cursor. `after` is the backend's position: the engine's last docID
/// returned, the cluster's last browse key (`BrowseKey`).
package struct BrowseCursor: Equatable {
    /// The largest page `browse` returns, as Algolia's.
    package static let maxHitsPerPage = 1000

    package var index: String
    package var after: String
    /// The query and filters the browse started with.
    package var query: SearchQuery
    /// The page size and attributes last asked for: later pages keep them unless they ask otherwise.
    package var hitsPerPage: Int
    package var attributesToRetrieve: [String]?

    package var encoded: String {
        var body: JSONObject = ["v": 1, "index": .string(index), "after": .string(after), "params": .object(query.json),
                                "hitsPerPage": JSON(hitsPerPage)]
        if let attributesToRetrieve { body["attributesToRetrieve"] = .array(attributesToRetrieve.map { .string($0) }) }
        return Base64URL.encode(JSONWriter.encode(.object(body)))
    }

    package init(index: String, after: String, query: SearchQuery, hitsPerPage: Int, attributesToRetrieve: [String]?) {
        self.index = index
        self.after = after
        self.query = query
        self.hitsPerPage = hitsPerPage
        self.attributesToRetrieve = attributesToRetrieve
    }

    package init(decoding text: String, index expected: String) throws(BackendError) {
        let invalid = BackendError.invalidParameter(name: "cursor", expected: "a cursor returned by a previous browse")
        guard let bytes = Base64URL.decode(text), case .object(let body)? = try? JSONParser.parse(bytes),
              body["v"] == 1, let index = body["index"]?.stringValue, let after = body["after"]?.stringValue,
              let parameters = body["params"]?.objectValue, let hitsPerPage = body["hitsPerPage"]?.intValue
        else { throw invalid }
        let attributes = body["attributesToRetrieve"]?.arrayValue?.compactMap(\.stringValue)
        guard index == expected else {
            throw .invalidParameter(name: "cursor", expected: "a cursor from a browse of '\(expected)' (this one browses '\(index)')")
        }
        let query: SearchQuery
        do { query = try SearchQuery(json: parameters) } catch { throw invalid }
        self.init(index: index, after: after, query: query, hitsPerPage: hitsPerPage, attributesToRetrieve: attributes)
    }
}
