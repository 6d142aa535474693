import QuarryJSON
import QuarrySearchContract

/// One read of `IndexBackend.searchBatch`: what a session's searcher asks on a keystroke.
public enum BatchRead: Sendable {
    case search(index: String, parameters: JSONObject)
    case facetValues(index: String, attribute: String, parameters: JSONObject)

    public var index: String {
        switch self {
        case .search(let index, _), .facetValues(let index, _, _): index
        }
    }
}

extension IndexBackend {
    /// Each read on its own, in order: right for the engine, where a read costs no round trip.
    public func searchEach(_ reads: [BatchRead], positionEncoding: PositionEncoding, alsoOtherRanges: Bool)
        -> [Result<JSON, BackendError>]
    {
        reads.map { read in
            do throws(BackendError) {
                switch read {
                case .search(let index, let parameters):
                    return .success(try search(index: index, parameters: parameters, positionEncoding: positionEncoding,
                                               alsoOtherRanges: alsoOtherRanges))
                case .facetValues(let index, let attribute, let parameters):
                    return .success(try searchForFacetValues(index: index, attribute: attribute, parameters: parameters,
                                                             positionEncoding: positionEncoding))
                }
            } catch {
                return .failure(error)
            }
        }
    }
}
