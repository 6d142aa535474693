import QuarryJSON
import QuarryRecords
import QuarrySearchContract

extension Engine {
    /// One page of every record matching a query (its words and filters, as
    /// `search` reads them), in the order the index ranks ties
    /// in (records in the order they were first added), not capped by
    /// `paginationLimitedTo`. The first call passes the query; later calls
    /// pass only the cursor, which carries it (and the page size and
    /// attributes, which a later call may change).
    ///
    /// A record that exists throughout a browse is returned exactly once (a
    /// replaced record keeps its place); one added during it is returned; one
    /// deleted before its page is read is not returned.
    public func browse(
        index name: String, from position: BrowsePosition, hitsPerPage: Int? = nil, attributesToRetrieve: [String]? = nil
    ) throws(BackendError) -> BrowsePage {
        var browse: BrowseCursor
        var after: Int64? = nil
        switch position {
        case .start(let query):
            browse = BrowseCursor(index: name, after: "", query: query, hitsPerPage: BrowseCursor.maxHitsPerPage, attributesToRetrieve: nil)
        case .cursor(let cursor):
            browse = try BrowseCursor(decoding: cursor, index: name)
            guard let docID = Int64(browse.after) else {
                throw .invalidParameter(name: "cursor", expected: "a cursor returned by a previous browse")
            }
            after = docID
        }
        if let hitsPerPage { browse.hitsPerPage = hitsPerPage }
        if let attributesToRetrieve { browse.attributesToRetrieve = attributesToRetrieve }
        let (index, replica) = try resolve(name)
        guard let snapshot = index.views.view(replica) else { throw .indexNotFound(name) }
        let matches: DocumentMatches?
        let nbHits: Int
        if browse.query.matchesEverything {
            matches = nil
            nbHits = snapshot.index.documentCount
        } else {
            let search = try SearchParameters(query: browse.query, settings: snapshot.settings)
            matches = try snapshot.index.matches(search)
            nbHits = matches?.count ?? 0
        }
        let page = try index.readers.withSource { (source) throws(BackendError) in
            try source.browse(after: after, limit: browse.hitsPerPage, matches: matches)
        }
        let retrieve = browse.attributesToRetrieve.flatMap { $0.contains("*") ? nil : $0 }
        let hits = page.records.map { entry in RecordAttributes.retrieve(retrieve, from: entry.record, objectID: entry.objectID) }
        var next: String? = nil
        if page.more, let last = page.records.last {
            browse.after = String(last.docID)
            next = browse.encoded
        }
        return BrowsePage(hits: hits, cursor: next, nbHits: nbHits)
    }
}
