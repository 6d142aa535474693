import QuarryFilters
import QuarrySearchContract

/// The filter state as Algolia's `filters` string (A1), and as the typed filters a search is
/// asked, split the way disjunctive faceting needs them.
extension FilterState {
    /// Every group, in A1 order, each parenthesised, joined with ` AND `; `""` when empty.
    public func rendered() -> String {
        Self.join(orderedGroupIDs.compactMap { renderedGroup($0) })
    }

    func renderedGroup(_ group: FilterGroupID) -> String? {
        FilterExpression.renderedGroup(filters(in: group), joinedBy: group.join)
    }

    /// The or-groups of facet or numeric filters on one attribute: these are what a refinement
    /// list or a range slider of that attribute relaxes for its own counts and stats (A2), as
    /// InstantSearch's helper relaxes a disjunctive facet's own numeric refinements. An or-group
    /// mixing attributes is not disjunctive: it stays a plain clause.
    func disjunctiveAttribute(of group: FilterGroupID) -> String? {
        switch group {
        case .or(_, .facet), .or(_, .numeric): break
        default: return nil
        }
        let attributes = Set(filters(in: group).map(\.attribute))
        return attributes.count == 1 ? attributes.first : nil
    }

    /// What a search is asked (protocol/sessions.md, "Filter state"): the state without its
    /// disjunctive or-groups and without hierarchical groups (asked as hierarchical selections),
    /// and per disjunctive attribute, its or-groups. Each group is the expression its rendering
    /// (`rendered()`) parses to, so a search built here equals one read from those strings.
    public func searchFilters() -> (filter: FilterExpression, disjunctive: [SearchQuery.DisjunctiveGroup]) {
        var base = FilterExpression.all
        var disjunctive: [String: FilterExpression] = [:]
        for group in orderedGroupIDs {
            guard let expression = FilterExpression.group(filters(in: group), joinedBy: group.join) else { continue }
            if case .hierarchical = group { continue }
            if let attribute = disjunctiveAttribute(of: group) {
                disjunctive[attribute, default: .all] = disjunctive[attribute, default: .all].combined(with: expression)
            } else {
                base = base.combined(with: expression)
            }
        }
        let attributes = disjunctive.keys.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
        return (base, attributes.map { SearchQuery.DisjunctiveGroup(attribute: $0, filter: disjunctive[$0] ?? .all) })
    }

    static func join(_ groups: [String]) -> String { groups.joined(separator: " AND ") }
}
