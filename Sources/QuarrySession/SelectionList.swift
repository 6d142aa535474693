import QuarryFilters

/// How a facet filter list (fixed filters a frontend shows, protocol/sessions.md)
/// changes the filter state when the user picks one of its items.
public enum SelectionMode: String, Sendable {
    /// Picking toggles the item on or off.
    case multiple
    /// Picking an item removes the list's other items from the group; picking
    /// the selected one clears it.
    case single
}

extension FilterState {
    /// Applies a pick of `atom` in `group`. In single mode, `items` are the
    /// list's other choices; without them, every filter of the group on the
    /// same attribute counts as one (a single-choice refinement list).
    /// Returns whether `atom` is selected afterwards.
    @discardableResult
    public mutating func select(
        _ atom: FilterAtom, in group: FilterGroupID, mode: SelectionMode, items: [FilterAtom]? = nil
    ) throws(SessionError) -> Bool {
        switch mode {
        case .multiple:
            return try toggle(atom, in: group)
        case .single:
            if contains(atom, in: group) {
                remove(atom, from: group)
                return false
            }
            let others = items.map(Set.init) ?? filters(in: group).filter { $0.attribute == atom.attribute }
            for other in others { remove(other, from: group) }
            try add(atom, to: group)
            return true
        }
    }
}
