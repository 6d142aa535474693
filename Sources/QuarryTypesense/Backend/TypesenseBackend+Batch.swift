import QuarryBackend
import QuarryJSON
import QuarrySearchContract

/// A keystroke's reads (every searcher of a session, with their disjunctive and hierarchical
/// counts) as one `multi_search`: one round trip, however many searchers.
extension TypesenseBackend {
    public func searchBatch(_ reads: [BatchRead], positionEncoding: PositionEncoding, alsoOtherRanges: Bool)
        -> [Result<JSON, BackendError>]
    {
        guard reads.count > 1 else { return searchEach(reads, positionEncoding: positionEncoding, alsoOtherRanges: alsoOtherRanges) }
        do throws(BackendError) {
            try ready()
        } catch {
            return reads.map { _ in .failure(error) }
        }
        let prepared = reads.map { read -> Result<TypesenseSearch.Prepared, BackendError> in
            do throws(BackendError) {
                return .success(try prepare(read, positionEncoding: positionEncoding, alsoOtherRanges: alsoOtherRanges))
            } catch {
                return .failure(error)
            }
        }
        let requests = prepared.flatMap { (try? $0.get())?.translation.requests ?? [] }
        let results: [JSONObject]
        do throws(BackendError) {
            results = requests.isEmpty ? [] : try multiSearch(index: reads[0].index)(requests)
        } catch {
            // A collection gone (another daemon rebuilt an index) or a failed call: each read on its
            // own, which reads the catalogue again where an index is missing and names its own error.
            return searchEach(reads, positionEncoding: positionEncoding, alsoOtherRanges: alsoOtherRanges)
        }
        var offset = 0
        return zip(reads, prepared).map { read, prepared -> Result<JSON, BackendError> in
            let alone = { self.searchEach([read], positionEncoding: positionEncoding, alsoOtherRanges: alsoOtherRanges)[0] }
            switch prepared {
            case .failure(.indexNotFound): return alone()
            case .failure(let error): return .failure(error)
            case .success(let prepared):
                let count = prepared.translation.requests.count
                let answers = Array(results[offset..<offset + count])
                offset += count
                do throws(BackendError) {
                    return .success(try prepared.answer(answers, multiSearch(index: read.index)))
                } catch {
                    if case .indexNotFound = error { return alone() }
                    return .failure(error)
                }
            }
        }
    }

    private func prepare(_ read: BatchRead, positionEncoding: PositionEncoding, alsoOtherRanges: Bool)
        throws(BackendError) -> TypesenseSearch.Prepared
    {
        let (entry, settings, fields) = try searchable(read.index)
        let collection = FieldNames.alias(ofIndex: entry.name)
        switch read {
        case .search(let index, let parameters):
            return try TypesenseSearch.prepareSearch(
                index: index, parameters: parameters, settings: settings, collection: collection, fields: fields,
                positionEncoding: positionEncoding, alsoOtherRanges: alsoOtherRanges, highlighting: HitHighlighter(settings: settings))
        case .facetValues(let index, let attribute, let parameters):
            return try TypesenseSearch.prepareFacetValues(
                index: index, attribute: attribute, parameters: parameters, settings: settings, collection: collection,
                fields: fields, positionEncoding: positionEncoding)
        }
    }
}
