import QuarryJSON

/// The objectIDs of every record a browse matches, page after page: what
/// `deleteBy` deletes, found the same way on both backends.
package enum MatchingRecords {
    /// Deleting everything needs `clearObjects`; an empty `deleteBy` is refused so a forgotten filter deletes nothing.
    package static let selectingNames = ["query", "filters", "facetFilters", "numericFilters", "tagFilters",
                                         "aroundLatLng", "insideBoundingBox", "insidePolygon"]

    package static func objectIDs(
        parameters: JSONObject, browse: (_ parameters: JSONObject, _ cursor: String?) throws(BackendError) -> BrowsePage
    ) throws(BackendError) -> [String] {
        guard selectingNames.contains(where: { name in parameters[name].map { !isEmpty($0) } ?? false }) else {
            throw .invalidParameter(name: "filters", expected: "a query or filters that select the records to delete "
                                    + "(deleting every record is clearObjects)")
        }
        var objectIDs: [String] = []
        var page = try browse(parameters, nil)
        while true {
            objectIDs += page.hits.compactMap { $0["objectID"]?.stringValue }
            guard let cursor = page.cursor else { return objectIDs }
            page = try browse([:], cursor)
        }
    }

    private static func isEmpty(_ value: JSON) -> Bool {
        switch value {
        case .null: true
        case .string(let text): text.isEmpty
        case .array(let items): items.isEmpty
        default: false
        }
    }
}
