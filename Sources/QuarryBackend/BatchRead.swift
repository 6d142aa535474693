import QuarryJSON
import QuarrySearchContract

/// One read of `IndexBackend.searchBatch`: what a session's searcher asks on a keystroke.
public enum BatchRead: Sendable {
    case search(index: String, query: SearchQuery)
    case facetValues(index: String, query: FacetValueQuery)

    public var index: String {
        switch self {
        case .search(let index, _), .facetValues(let index, _): index
        }
    }
}

extension IndexBackend {
    /// Each read on its own, in order: right for the engine, where a read costs no round trip.
    public func searchEach(_ reads: [BatchRead]) -> [Result<SearchAnswer, BackendError>] {
        reads.map { read in
            do throws(BackendError) {
                switch read {
                case .search(let index, let query): return .success(.search(try search(index: index, query: query)))
                case .facetValues(let index, let query): return .success(.facetValues(try searchForFacetValues(index: index, query: query)))
                }
            } catch {
                return .failure(error)
            }
        }
    }
}
