import QuarryFilters
import QuarryProtocol
import QuarrySession

/// Wire filters and group references, as the session model takes them.
extension SessionFilter {
    var atom: FilterAtom {
        switch condition {
        case .facet(let attribute, let value):
            let facet: QuarryFilters.FacetValue = switch value {
            case .string(let text): .string(text)
            case .number(let number): .number(number)
            case .bool(let flag): .bool(flag)
            }
            return .facet(attribute, facet, negated: negated)
        case .comparison(let attribute, let op, let value):
            return .comparison(attribute, NumericOperator(rawValue: op) ?? .equal, value, negated: negated)
        case .range(let attribute, let lower, let upper):
            return .range(attribute, lower, upper, negated: negated)
        case .tag(let tag):
            return .tag(tag, negated: negated)
        }
    }
}

extension SessionGroupReference {
    var join: FilterJoin { op == .or ? .or : .and }

    /// Whether a clearing selector names `group`.
    func matches(_ group: FilterGroupID) -> Bool {
        guard group.name == name else { return false }
        guard let op else { return true }
        guard op.rawValue == group.operatorName else { return false }
        if let type, case .or(_, let kind) = group { return kind.rawValue == type }
        return true
    }
}
