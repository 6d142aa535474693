import QuarryFilters

/// Which group a filter lives in (protocol/sessions.md): a group is its name *and*
/// its kind, so an and-group "x" and an or-group "x" are two groups, and an
/// or-group holds filters of one type only.
public enum FilterGroupID: Sendable, Hashable {
    case and(String)
    case or(String, FilterKind)
    /// One hierarchical menu's selection (a single facet filter on its deepest level).
    case hierarchical(String)

    public var name: String {
        switch self {
        case .and(let name), .or(let name, _), .hierarchical(let name): name
        }
    }

    /// The operator between the group's filters.
    public var join: FilterJoin {
        if case .or = self { .or } else { .and }
    }

    /// The wire name of the group's kind: `and`, `or`, `hierarchical`.
    public var operatorName: String {
        switch self {
        case .and: "and"
        case .or: "or"
        case .hierarchical: "hierarchical"
        }
    }

    /// The group a filter joins when the frontend names the group and its operator.
    public static func group(named name: String, join: FilterJoin, for atom: FilterAtom) -> FilterGroupID {
        join == .or ? .or(name, atom.kind) : .and(name)
    }

    /// Rendering order (A1): by name in code-point order; for one name an
    /// or-group before an and-group (then hierarchical); or-groups of one name by type.
    static func precedes(_ lhs: FilterGroupID, _ rhs: FilterGroupID) -> Bool {
        if lhs.name != rhs.name { return lhs.name.unicodeScalars.lexicographicallyPrecedes(rhs.name.unicodeScalars) }
        return lhs.rank < rhs.rank
    }

    private var rank: Int {
        switch self {
        case .or(_, let kind): FilterKind.allCases.firstIndex(of: kind) ?? 0
        case .and: FilterKind.allCases.count
        case .hierarchical: FilterKind.allCases.count + 1
        }
    }
}
