import QuarryFilters

/// Under which conditions are the hits found, and each facet attribute counted?
///
/// One condition per disjunctive group and per selected hierarchical level, addressed by bit. Hits
/// pass the base filter and every group and deepest level; a counted attribute relaxes its own
/// or-group, a hierarchical level relaxes the deeper selections (level k shows the children of the
/// selection at k − 1). `FilterPlan` turns the conditions into bitsets; the Typesense backend into
/// searches (package-visible for it), so both count under the same rule.
package struct ConditionPlan: Sendable {
    /// Condition expressions, addressed by bit.
    package let conditions: [FilterExpression]
    /// The conditions the hits pass.
    package let hitConditions: UInt64
    /// Attributes to count, in the response's order, each with the conditions it requires.
    package let counted: [(attribute: String, required: UInt64)]
    /// Disjunctive attribute → the values its group selects (listed with 0 when they match nothing).
    package let selected: [String: [String]]

    package init(_ refinements: SearchRefinements) throws(BackendError) {
        var expressions: [FilterExpression] = []
        var disjunctiveBit: [String: UInt64] = [:]
        var selected: [String: [String]] = [:]
        for group in refinements.disjunctive {
            disjunctiveBit[group.attribute, default: 0] |= 1 << UInt64(expressions.count)
            expressions.append(group.filter)
            selected[group.attribute, default: []] += group.selected
        }
        // levelBits[h][k]: the condition "level k equals the selection down to k".
        var levelBits: [[UInt64]] = []
        for facet in refinements.hierarchical {
            var bits: [UInt64] = []
            for level in facet.path.indices where level < facet.attributes.count {
                bits.append(1 << UInt64(expressions.count))
                expressions.append(FilterExpression(.facet(facet.attributes[level], .string(facet.value(atLevel: level)))))
            }
            levelBits.append(bits)
        }
        guard expressions.count <= 64 else {
            throw .invalidParameter(name: "disjunctiveFilters", expected: "at most 64 groups and hierarchical levels in all")
        }
        let allHits = disjunctiveBit.values.reduce(0, |) | levelBits.map { $0.last ?? 0 }.reduce(0, |)

        var counted: [(attribute: String, required: UInt64)] = []
        func add(_ attribute: String, _ required: UInt64, replacing: Bool = false) {
            if let i = counted.firstIndex(where: { $0.attribute == attribute }) {
                counted[i].required = replacing ? required : counted[i].required & required
            } else {
                counted.append((attribute, required))
            }
        }
        for attribute in refinements.facets ?? [] { add(attribute, allHits & ~(disjunctiveBit[attribute] ?? 0)) }
        for attribute in refinements.disjunctive.map(\.attribute) { add(attribute, allHits & ~(disjunctiveBit[attribute] ?? 0)) }
        for (h, facet) in refinements.hierarchical.enumerated() {
            let others = allHits & ~levelBits[h].reduce(0, |)
            for level in 0...min(facet.path.count, facet.attributes.count - 1) {
                add(facet.attributes[level], others | (level == 0 ? 0 : levelBits[h][level - 1]), replacing: true)
            }
        }
        conditions = expressions
        hitConditions = allHits
        self.counted = counted
        self.selected = selected
    }

    /// The base filter AND the conditions of `mask`.
    package func filter(base: FilterExpression, mask: UInt64) -> FilterExpression {
        var result = base
        for (c, condition) in conditions.enumerated() where mask & (1 << UInt64(c)) != 0 { result = result.combined(with: condition) }
        return result
    }
}
