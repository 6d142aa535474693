import QuarryJSON

/// What one REST request needs: an answer at once, or JSON-RPC calls (sent in order on one connection)
/// and how their results make the answer.
public enum AlgoliaPlan: Sendable {
    case respond(AlgoliaResponse)
    case call([RPCCall], assemble: @Sendable ([RPCOutcome]) -> AlgoliaResponse)
    /// One call whose result is the answer's body as the server wrote it: nothing to parse or write again,
    /// which is most of what a search's answer costs the edge (Benchmarks/RESULTS.md, "Algolia's REST API").
    case forward(RPCCall)

    /// What Algolia's search-only key reaches: search, facet search, browse and getObjects. Narrower than a
    /// search-only WebSocket, which may also read settings and the list of indices (protocol/keys.md).
    public static let searchOnlyMethods: Set<String> = ["search", "searchForFacetValues", "browse", "getObjects"]

    /// Whether every call of the plan is one a search-only key may make.
    public var searchOnlyMay: Bool {
        switch self {
        case .respond: true
        case .call(let calls, _): calls.allSatisfy { Self.searchOnlyMethods.contains($0.method) }
        case .forward(let call): Self.searchOnlyMethods.contains(call.method)
        }
    }

    /// One call whose result is the answer's body, reshaped by `shape`; its error becomes Algolia's.
    static func one(_ call: RPCCall, _ shape: @escaping @Sendable (JSON) -> AlgoliaResponse) -> AlgoliaPlan {
        .call([call]) { outcomes in
            switch outcomes[0] {
            case .success(let result): shape(result)
            case .failure(let failure): failure.response
            }
        }
    }

    /// Several calls; the first error is the answer, else `shape` gets every result.
    static func all(_ calls: [RPCCall], _ shape: @escaping @Sendable ([JSON]) -> AlgoliaResponse) -> AlgoliaPlan {
        .call(calls) { outcomes in
            var results: [JSON] = []
            for outcome in outcomes {
                switch outcome {
                case .success(let result): results.append(result)
                case .failure(let failure): return failure.response
                }
            }
            return shape(results)
        }
    }
}

/// A parameter error found before any call: Algolia's 400.
struct AlgoliaBadRequest: Error {
    let message: String
}
