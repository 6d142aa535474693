/// Everything a session's frontends share, as a pure value: the query, the
/// filter state, the hierarchical menus and the searchers in order. Changes
/// to it are checked here; `Session` versions and publishes them.
public struct SessionState: Sendable, Hashable {
    public var query = ""
    public var filters = FilterState()
    /// Hierarchical menus by name; their selections live in `filters`.
    public var menus: [String: HierarchicalMenu] = [:]
    public private(set) var searchers: [Searcher] = []
    private var nextSearcherNumber = 1

    public init() {}

    /// Appends a searcher and returns its new id (`s1`, `s2`, …).
    @discardableResult
    public mutating func addSearcher(_ kind: Searcher.Kind) -> String {
        let id = "s\(nextSearcherNumber)"
        nextSearcherNumber += 1
        searchers.append(Searcher(id: id, kind: kind))
        return id
    }

    public mutating func removeSearcher(_ id: String) throws(SessionError) {
        guard let position = searchers.firstIndex(where: { $0.id == id }) else { throw .searcherNotFound(id) }
        searchers.remove(at: position)
    }

    public func searcher(_ id: String) throws(SessionError) -> Searcher {
        guard let searcher = searchers.first(where: { $0.id == id }) else { throw .searcherNotFound(id) }
        return searcher
    }

    public func hitsSearcher(_ id: String) throws(SessionError) -> HitsSearcher {
        guard case .hits(let hits) = try searcher(id).kind else {
            throw .invalidParameter("searcher", "a hits searcher: \"\(id)\" is a facets searcher")
        }
        return hits
    }

    /// Changes a hits searcher in place.
    public mutating func updateHitsSearcher(_ id: String, _ change: (inout HitsSearcher) throws(SessionError) -> Void) throws(SessionError) {
        var hits = try hitsSearcher(id)
        try change(&hits)
        guard let position = searchers.firstIndex(where: { $0.id == id }) else { throw .searcherNotFound(id) }
        searchers[position].kind = .hits(hits)
    }

    /// Selects `path` in the menu over `attributes` (created or updated), or
    /// moves up a level if it is already selected (A2).
    public mutating func selectHierarchical(name: String, attributes: [String], separator: String, path: String?) throws(SessionError) {
        let menu = try HierarchicalMenu(name: name, attributes: attributes, separator: separator)
        let current = menus[name].flatMap { $0.path(in: filters) }
        let next = menu.selecting(path, current: current)
        var updated = filters
        updated.clear(menu.group)  // the levels may have changed
        try menu.apply(next, to: &updated)
        menus[name] = menu
        filters = updated
    }

    /// The menus in name order.
    public var orderedMenus: [HierarchicalMenu] {
        menus.values.sorted { $0.name.unicodeScalars.lexicographicallyPrecedes($1.name.unicodeScalars) }
    }
}
