import QuarryJSON

/// The objectIDs of every record a browse matches, page after page: what
/// `deleteBy` deletes, found the same way on both backends.
package enum MatchingRecords {
    package static func objectIDs(
        query: SearchQuery, browse: (BrowsePosition) throws(BackendError) -> BrowsePage
    ) throws(BackendError) -> [String] {
        // Deleting everything needs `clearObjects`; an empty `deleteBy` is refused so a forgotten filter deletes nothing.
        guard query.selectsRecords else {
            throw .invalidParameter(name: "filters", expected: "a query or filters that select the records to delete "
                                    + "(deleting every record is clearObjects)")
        }
        var objectIDs: [String] = []
        var page = try browse(.start(query))
        while true {
            objectIDs += page.hits.compactMap { $0["objectID"]?.stringValue }
            guard let cursor = page.cursor else { return objectIDs }
            page = try browse(.cursor(cursor))
        }
    }
}
