/// What a key lets a web connection do (protocol/keys.md).
public enum WebAccess: Sendable, Equatable {
    /// Everything the socket allows.
    case admin
    /// Reads and session methods only: what a page open in a browser needs, and nothing that changes an index.
    case searchOnly

    /// Whether a request for `method` may run. An allow-list: a method added later is refused to a
    /// search-only key until it is listed here.
    public func permits(_ method: String) -> Bool {
        switch self {
        case .admin: true
        case .searchOnly: Self.searchOnlyMethods.contains(method)
        }
    }

    /// Requests a search-only key may send. Notifications (`initialized`, `exit`, `$/cancelRequest`) are
    /// not requests and touch only the connection itself.
    public static let searchOnlyMethods: Set<String> = [
        "initialize",
        // Reads.
        "browse", "getObjects", "getSettings", "listIndices", "search", "searchForFacetValues",
        // Sessions.
        "addFacetsSearcher", "addHitsSearcher", "clearFilters", "closeSession", "getState", "listSessions",
        "loadPage", "openSession", "removeSearcher", "setFilters", "setHierarchicalFilter", "setIndex",
        "setQuery", "toggleFilter", "toggleRelevantSort",
    ]
}
