import QuarryFilters

/// The filter state as Algolia's `filters` string (A1), and split the way the
/// engine's disjunctive faceting needs it.
extension FilterState {
    /// Every group, in A1 order, each parenthesised, joined with ` AND `; `""` when empty.
    public func rendered() -> String {
        Self.join(orderedGroupIDs.compactMap { renderedGroup($0) })
    }

    func renderedGroup(_ group: FilterGroupID) -> String? {
        FilterExpression.renderedGroup(filters(in: group), joinedBy: group.join)
    }

    /// The or-groups of facet filters on one attribute: these are what a
    /// refinement list of that attribute relaxes for its own counts (A2).
    /// A facet or-group mixing attributes is not disjunctive: it stays a plain clause.
    func disjunctiveAttribute(of group: FilterGroupID) -> String? {
        guard case .or(_, .facet) = group else { return nil }
        let attributes = Set(filters(in: group).map(\.attribute))
        return attributes.count == 1 ? attributes.first : nil
    }

    /// What the engine is sent: `filters` without the disjunctive or-groups and
    /// without hierarchical groups (sent as `hierarchicalFacets`), and
    /// `disjunctiveFilters`, one rendered string per disjunctive attribute.
    public func engineFilters() -> (filters: String, disjunctive: [(attribute: String, filters: String)]) {
        var base: [String] = []
        var disjunctive: [String: [String]] = [:]
        for group in orderedGroupIDs {
            guard let text = renderedGroup(group) else { continue }
            if case .hierarchical = group { continue }
            if let attribute = disjunctiveAttribute(of: group) {
                disjunctive[attribute, default: []].append(text)
            } else {
                base.append(text)
            }
        }
        let attributes = disjunctive.keys.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
        return (Self.join(base), attributes.map { ($0, Self.join(disjunctive[$0] ?? [])) })
    }

    static func join(_ groups: [String]) -> String { groups.joined(separator: " AND ") }
}
