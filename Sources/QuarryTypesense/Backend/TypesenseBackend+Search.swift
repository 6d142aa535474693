import QuarryJSON
import QuarryRecords
import QuarrySearchContract

/// Reads that search: each is one `multi_search` on the index's alias (a
/// replica searches its primary's) with the settings the engine would use.
extension TypesenseBackend {
    public func search(index: String, query: SearchQuery) throws(BackendError) -> SearchResponse {
        try ready()
        return try gate.reading { () throws(BackendError) in try searchOnce(index: index, query: query) }
    }

    private func searchOnce(index: String, query: SearchQuery) throws(BackendError) -> SearchResponse {
        try againIfRebuilt(index) { () throws(BackendError) in
            let (entry, settings, fields) = try searchable(index)
            return try TypesenseSearch.search(
                index: index, query: query, settings: settings, collection: FieldNames.alias(ofIndex: entry.name),
                fields: fields, highlighting: HitHighlighter(settings: settings), multiSearch: multiSearch(index: index))
        }
    }

    /// Runs a read again, on a fresh catalogue, when its collection or a field it named is gone:
    /// another daemon rebuilt the index (a new collection, maybe with other fields) within the
    /// second this daemon trusts its copy of the catalogue. The one place stale copies are handled.
    func againIfRebuilt<T>(_ index: String, _ body: () throws(BackendError) -> T) throws(BackendError) -> T {
        do {
            return try body()
        } catch .indexNotFound(let name) where name == index {
            catalog.invalidate()
            catalog.invalidateFields()
            return try body()
        }
    }

    public func searchForFacetValues(index: String, query: FacetValueQuery) throws(BackendError) -> FacetValuesResponse {
        try ready()
        return try gate.reading { () throws(BackendError) in try facetValues(index: index, query: query) }
    }

    private func facetValues(index: String, query: FacetValueQuery) throws(BackendError) -> FacetValuesResponse {
        try againIfRebuilt(index) { () throws(BackendError) in
            let (entry, settings, fields) = try searchable(index)
            return try TypesenseSearch.searchForFacetValues(
                index: index, query: query, settings: settings,
                collection: FieldNames.alias(ofIndex: entry.name), fields: fields, multiSearch: multiSearch(index: index))
        }
    }

    /// One page of the records a query matches, in browse-key order (see `BrowseKey`).
    public func browse(index: String, from position: BrowsePosition, hitsPerPage: Int?, attributesToRetrieve: [String]?)
        throws(BackendError) -> BrowsePage
    {
        var browse: BrowseCursor
        switch position {
        case .start(let query):
            browse = BrowseCursor(index: index, after: "", query: query, hitsPerPage: BrowseCursor.maxHitsPerPage,
                                  attributesToRetrieve: nil)
        case .cursor(let cursor):
            browse = try BrowseCursor(decoding: cursor, index: index)
        }
        if let hitsPerPage { browse.hitsPerPage = hitsPerPage }
        if let attributesToRetrieve { browse.attributesToRetrieve = attributesToRetrieve }
        guard (1...BrowseCursor.maxHitsPerPage).contains(browse.hitsPerPage) else {
            throw .invalidParameter(name: "hitsPerPage", expected: "1 to \(BrowseCursor.maxHitsPerPage)")
        }
        try ready()
        let first = browse
        return try againIfRebuilt(index) { () throws(BackendError) in try page(of: index, browse: first) }
    }

    private func page(of index: String, browse start: BrowseCursor) throws(BackendError) -> BrowsePage {
        var browse = start
        let (entry, settings, fields) = try searchable(index)
        var search = try SearchParameters(query: browse.query, settings: settings)
        search.hitsPerPage = 1
        search.page = 0
        let translation = try SearchTranslation(
            index: index, parameters: search, settings: settings, collection: FieldNames.alias(ofIndex: entry.name),
            fields: fields, filter: TypesenseSearch.defaultFilter(fields),
            highlighting: nil)
        guard let first = translation.searches.first, let base = first.parameters else {
            return BrowsePage(hits: [], cursor: nil, nbHits: 0)  // known to match nothing
        }
        var request = base
        request["sort_by"] = .string("\(BrowseKey.field):asc")
        request["include_fields"] = .string(FieldNames.record + "," + BrowseKey.field)
        request["page"] = 1
        for key in ["group_by", "group_limit", "facet_by", "max_facet_values"] { request[key] = nil }
        let baseFilter = request["filter_by"]?.stringValue
        var counting = request
        counting["per_page"] = 0
        let retrieve = browse.attributesToRetrieve.flatMap { $0.contains("*") ? nil : $0 }
        var hits: [JSONObject] = []
        var after = Int64(browse.after)
        var nbHits = 0
        var more: Bool
        while true {
            let remaining = browse.hitsPerPage - hits.count
            let wanted = min(250, remaining + 1)  // one more than needed tells whether a next page exists
            var page = request
            page["per_page"] = JSON(wanted)
            if let after {
                let keyFilter = "\(BrowseKey.field):>\(after)"
                page["filter_by"] = .string(baseFilter.map { "(\($0)) && \(keyFilter)" } ?? keyFilter)
            }
            let results = try multiSearch(index: index)(hits.isEmpty ? [page, counting] : [page])
            if results.count > 1 { nbHits = results[1]["found"]?.intValue ?? 0 }
            let documents = results.first?["hits"]?.arrayValue?.compactMap { $0["document"]?.objectValue } ?? []
            for document in documents.prefix(remaining) {
                guard let record = Self.record(of: document), let objectID = record["objectID"]?.stringValue else { continue }
                hits.append(RecordAttributes.retrieve(retrieve, from: record, objectID: objectID))
                after = document[BrowseKey.field]?.intValue.map(Int64.init) ?? after
            }
            if documents.count > remaining { more = true; break }
            if documents.count < wanted { more = false; break }
        }
        var next: String? = nil
        if more, let after {
            browse.after = String(after)
            next = browse.encoded
        }
        return BrowsePage(hits: hits, cursor: next, nbHits: nbHits)
    }

    /// The primary entry holding `index`'s records, the settings `index` searches with, and its
    /// collection's fields; a collection gone meanwhile is `.indexNotFound` (see `againIfRebuilt`).
    func searchable(_ index: String) throws(BackendError) -> (entry: CatalogEntry, settings: IndexSettings, fields: Set<String>) {
        let (entry, replica) = try catalog.resolve(index)
        guard let fields = try catalog.fields(of: entry.collection) else { throw .indexNotFound(index) }
        return (entry, replica.map(entry.effectiveSettings) ?? entry.parsedSettings, fields)
    }

    /// Runs one multi_search, of the searches whose answer `counts` does not hold; a 404 (the alias or a
    /// field it named is gone: another daemon deleted or rebuilt the index) is a missing index, which
    /// `againIfRebuilt` retries once on a fresh catalogue.
    func multiSearch(index: String) -> TypesenseSearch.MultiSearch {
        let send: CountCache.Send = { [api] searches throws(BackendError) in
            do throws(TypesenseError) {
                return try api.multiSearch(searches)
            } catch {
                if error.isNotFound { throw .indexNotFound(index) }
                throw error.engineError
            }
        }
        return { [counts, cluster] searches throws(BackendError) in
            try counts.multiSearch(searches, writes: { cluster.writesNoted }, send: send)
        }
    }
}
