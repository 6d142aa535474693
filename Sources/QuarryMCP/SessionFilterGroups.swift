import QuarryFilters
import QuarryJSON

/// An Algolia filter string as a session's filter groups (setFilters'
/// `groups`), so an agent writes one syntax for search and for sessions.
/// Filters are a conjunction of clauses (QuarryFilters' normal form): a clause
/// of one condition joins the and-group of its attribute, a clause of several
/// becomes an or-group (the parser already refuses an OR of two kinds, which
/// InstantSearch's or-groups cannot hold; protocol/methods/setFilters.md).
public enum SessionFilterGroups {
    public static func groups(from filters: String) throws(ToolFailure) -> JSON {
        let expression: FilterExpression
        do {
            expression = try FilterParser.parse(filters)
        } catch {
            throw ToolFailure("filters: \(error.message) at character \(error.position) of \(quoted(filters)). "
                + "Write Algolia filter syntax, e.g. `tags:climate AND duration > 600`.")
        }
        var andGroups = JSONObject()
        var orGroups: [(name: String, filters: [JSON])] = []
        var names = Set<String>()
        // And-groups first, so or-groups take names none of them has.
        for clause in expression.clauses where clause.count == 1 {
            if let atom = clause.first {
                andGroups[atom.attribute] = .array((andGroups[atom.attribute]?.arrayValue ?? []) + [filter(atom)])
            }
        }
        for clause in expression.clauses where clause.count > 1 {
            let attributes = Array(Set(clause.map(\.attribute))).sorted()
            var name = attributes.joined(separator: "|")
            var suffix = 2
            while names.contains(name) || andGroups[name] != nil {
                name = attributes.joined(separator: "|") + " (\(suffix))"
                suffix += 1
            }
            names.insert(name)
            orGroups.append((name, clause.map(filter)))
        }
        var groups: [JSON] = orGroups.map { ["name": .string($0.name), "operator": "or", "filters": .array($0.filters)] }
        for (name, filters) in andGroups {
            groups.append(["name": .string(name), "operator": "and", "filters": filters])
        }
        return .array(groups)
    }

    /// One condition as toggleFilter.md writes a filter.
    static func filter(_ atom: FilterAtom) -> JSON {
        var object: JSONObject
        switch atom.condition {
        case .facet(let attribute, let value):
            let json: JSON = switch value {
            case .string(let text): .string(text)
            case .number(let number): number.rounded() == number && abs(number) < 1e15 ? .int(Int64(number)) : .double(number)
            case .bool(let flag): .bool(flag)
            }
            object = ["attribute": .string(attribute), "value": json]
        case .comparison(let attribute, let op, let value):
            object = ["attribute": .string(attribute), "operator": .string(op.rawValue), "value": .double(value)]
        case .range(let attribute, let lower, let upper):
            object = ["attribute": .string(attribute), "lower": .double(lower), "upper": .double(upper)]
        case .tag(let tag):
            object = ["tag": .string(tag)]
        }
        if atom.isNegated { object["negated"] = true }
        return .object(object)
    }

    static func quoted(_ text: String) -> String { "`\(text)`" }
}
