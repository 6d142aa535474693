import QuarryBackend
import QuarryJSON
import QuarrySearchContract

/// A keystroke's reads (every searcher of a session, with their disjunctive and hierarchical
/// counts) as one `multi_search`: one round trip, however many searchers.
extension TypesenseBackend {
    public func searchBatch(_ reads: [BatchRead]) -> [Result<SearchAnswer, BackendError>] {
        gate.reading { batch(reads) }
    }

    private func batch(_ reads: [BatchRead]) -> [Result<SearchAnswer, BackendError>] {
        guard reads.count > 1 else { return searchEach(reads) }
        do throws(BackendError) {
            try ready()
        } catch {
            return reads.map { _ in .failure(error) }
        }
        let prepared = reads.map { read -> Result<TypesenseSearch.Prepared, BackendError> in
            do throws(BackendError) {
                return .success(try prepare(read))
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
            return searchEach(reads)
        }
        var offset = 0
        return zip(reads, prepared).map { read, prepared -> Result<SearchAnswer, BackendError> in
            let alone = { self.searchEach([read])[0] }
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

    private func prepare(_ read: BatchRead) throws(BackendError) -> TypesenseSearch.Prepared {
        let (entry, settings, fields) = try searchable(read.index)
        let collection = FieldNames.alias(ofIndex: entry.name)
        switch read {
        case .search(let index, let query):
            return try TypesenseSearch.prepareSearch(
                index: index, query: query, settings: settings, collection: collection, fields: fields,
                highlighting: HitHighlighter(settings: settings))
        case .facetValues(let index, let query):
            return try TypesenseSearch.prepareFacetValues(
                index: index, query: query, settings: settings, collection: collection, fields: fields)
        }
    }
}
