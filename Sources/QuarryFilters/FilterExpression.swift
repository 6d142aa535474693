/// What records a search keeps: Algolia's filter language, in one shape.
///
/// An expression is an AND of clauses, each clause an OR of atoms (conjunctive
/// normal form). That is exactly what Algolia accepts: OR only among single
/// filters, AND between groups. The `filters` string (`FilterParser`), the
/// array forms (`init(facetFilters:numericFilters:tagFilters:)`) and a
/// session's filter state all become this one type; the engine evaluates it
/// (`matches(_:)`) and sessions render it (`rendered()`).
///
/// No clauses means no filter: every record matches. An empty clause is an OR
/// of nothing and matches no record (the parser never makes one).
public struct FilterExpression: Sendable, Hashable {
    public var clauses: [[FilterAtom]]

    public init(clauses: [[FilterAtom]] = []) {
        self.clauses = clauses
    }

    /// One filter, alone.
    public init(_ atom: FilterAtom) {
        self.clauses = [[atom]]
    }

    /// The expression that keeps every record.
    public static let all = FilterExpression()

    public var isEmpty: Bool { clauses.isEmpty }

    /// Both expressions must hold: their clauses, ANDed.
    public func combined(with other: FilterExpression) -> FilterExpression {
        FilterExpression(clauses: clauses + other.clauses)
    }

    /// Every attribute the expression reads, `_tags` included for tags.
    public var attributes: Set<String> {
        Set(clauses.joined().map(\.attribute))
    }

    /// The attributes of facet filters: the ones Algolia requires to be
    /// declared in `attributesForFaceting` (numeric and tag filters need not).
    public var facetAttributes: Set<String> {
        Set(clauses.joined().filter { $0.kind == .facet }.map(\.attribute))
    }
}
