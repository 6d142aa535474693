import QuarryFilters

/// Every selection of a session: filters in groups, with set semantics
/// (protocol/sessions.md, "Filter state"). The single source of truth that facet lists, toggles and
/// current-filter chips are read back from. A group left empty disappears.
public struct FilterState: Sendable, Hashable {
    public private(set) var groups: [FilterGroupID: Set<FilterAtom>] = [:]

    public init() {}

    public var isEmpty: Bool { groups.isEmpty }

    /// The group identities in rendering order.
    public var orderedGroupIDs: [FilterGroupID] { groups.keys.sorted(by: FilterGroupID.precedes) }

    public func filters(in group: FilterGroupID) -> Set<FilterAtom> { groups[group] ?? [] }

    public func contains(_ atom: FilterAtom, in group: FilterGroupID) -> Bool { groups[group]?.contains(atom) ?? false }

    /// Adds `atom` to `group`; a duplicate is ignored. An or-group takes only its own type.
    public mutating func add(_ atom: FilterAtom, to group: FilterGroupID) throws(SessionError) {
        if case .or(let name, let kind) = group, atom.kind != kind {
            throw .invalidParameter("filter", "a \(kind.rawValue) filter: or-group '\(name)' holds \(kind.rawValue) filters only")
        }
        groups[group, default: []].insert(atom)
    }

    public mutating func remove(_ atom: FilterAtom, from group: FilterGroupID) {
        guard var atoms = groups[group] else { return }
        atoms.remove(atom)
        groups[group] = atoms.isEmpty ? nil : atoms
    }

    /// Removes `atom` from every group that holds it.
    public mutating func removeEverywhere(_ atom: FilterAtom) {
        for group in Array(groups.keys) { remove(atom, from: group) }
    }

    /// Removes `atom` if `group` holds it, adds it otherwise; returns whether it is now present.
    @discardableResult
    public mutating func toggle(_ atom: FilterAtom, in group: FilterGroupID) throws(SessionError) -> Bool {
        if contains(atom, in: group) {
            remove(atom, from: group)
            return false
        }
        try add(atom, to: group)
        return true
    }

    /// Makes `group` hold exactly `atoms` (none: the group disappears).
    public mutating func replace(_ group: FilterGroupID, with atoms: [FilterAtom]) throws(SessionError) {
        groups[group] = nil
        for atom in atoms { try add(atom, to: group) }
    }

    public mutating func clear(_ group: FilterGroupID) { groups[group] = nil }

    public mutating func clear(where shouldClear: (FilterGroupID) -> Bool) {
        for group in Array(groups.keys) where shouldClear(group) { groups[group] = nil }
    }

    public mutating func clearAll() { groups = [:] }

    /// Whether a non-negated facet filter selects `value` of `attribute` in
    /// any group: what a refinement list shows as `isRefined`. Facet values
    /// compare without case, as filters match them.
    public func isRefined(attribute: String, value: String) -> Bool {
        refinedValues(of: attribute).contains(value.lowercased())
    }

    /// The lower-cased values of `attribute` selected by non-negated facet filters.
    public func refinedValues(of attribute: String) -> Set<String> {
        var values = Set<String>()
        for atoms in groups.values {
            for atom in atoms where !atom.isNegated {
                if case .facet(attribute, let value) = atom.condition { values.insert(value.text.lowercased()) }
            }
        }
        return values
    }

    /// The selected values of `attribute` as first written, for listing
    /// selected values that have no match (count 0).
    public func selectedValues(of attribute: String) -> [String] {
        var seen = Set<String>()
        var values: [String] = []
        for group in orderedGroupIDs {
            for atom in filters(in: group).sorted(by: FilterState.renderOrder) where !atom.isNegated {
                if case .facet(attribute, let value) = atom.condition, seen.insert(value.text.lowercased()).inserted {
                    values.append(value.text)
                }
            }
        }
        return values
    }

    /// Filters inside a group: by their rendered text, in code-point order.
    static func renderOrder(_ lhs: FilterAtom, _ rhs: FilterAtom) -> Bool {
        lhs.rendered().unicodeScalars.lexicographicallyPrecedes(rhs.rendered().unicodeScalars)
    }
}
