import QuarryFilters

extension SearchRefinements {
    /// The same records, with only `attribute`'s counts asked for: every or-group and menu that does
    /// not involve `attribute` becomes part of `filter`, as the hits see it (its group, the deepest
    /// level of its path), instead of a condition counted on its own (`ConditionPlan` counts each
    /// group's attribute and each level, so each would cost one more count: a Typesense search).
    package func folded(keepingCountsOf attribute: String) -> SearchRefinements {
        var folded = self
        folded.disjunctive = []
        folded.hierarchical = []
        for group in disjunctive {
            if group.attribute == attribute {
                folded.disjunctive.append(group)
            } else {
                folded.filter = folded.filter.combined(with: group.filter)
            }
        }
        for menu in hierarchical {
            let deepest = min(menu.path.count, menu.attributes.count) - 1
            if menu.attributes.contains(attribute) {
                folded.hierarchical.append(menu)
            } else if deepest >= 0 {
                let level = FilterExpression(.facet(menu.attributes[deepest], .string(menu.value(atLevel: deepest))))
                folded.filter = folded.filter.combined(with: level)
            }
        }
        return folded
    }
}
