import QuarryFilters
import QuarryJSON
import XCTest

/// Random filters, seeded so failures replay:
/// 1. a random `filters` string (random quoting, spacing, number spelling and
///    grouping) and the equivalent array parameters select the same records
///    from a random record set;
/// 2. parse(render(x)) == x for every parsed expression;
/// 3. the cases are not vacuous: many select some but not all records.
final class FilterPropertyTests: XCTestCase {
    private static let facetAttributes = ["color", "brand", "meta.kind"]
    private static let facetValues = ["Red", "red", "Blue", "blue jeans", "10", "3.5", "true", "-x", "a:b", "it's",
                                      "say \"hi\"", "AND", "Acme"]
    private static let numericAttributes = ["price", "stock", "dims.w"]
    private static let numbers: [Double] = [0, 5, 10, 10.5, 20, -3, 1000]
    private static let tags = ["new", "New", "sale", "-odd", "a b", "x:y"]

    /// One clause of the random expression, in both spellings.
    private struct Clause {
        var text: [String]
        var array: [String]
        var parameter: Parameter
    }

    private enum Parameter { case facet, numeric, tag }

    func testFilterStringAndArrayFormsSelectTheSameRecords() throws {
        var random = SeededGenerator(seed: 20_261_121)
        let records = (0..<40).map { _ in Self.record(&random) }
        var informative = 0
        for caseNumber in 0..<400 {
            let clauses = (0..<Int.random(in: 1...4, using: &random)).map { _ in Self.clause(&random) }
            let text = Self.filtersString(clauses, &random)
            let (facetFilters, numericFilters, tagFilters) = Self.arrays(clauses, &random)
            let parsed: FilterExpression
            let fromArrays: FilterExpression
            do {
                parsed = try FilterParser.parse(text)
                fromArrays = try FilterExpression(
                    facetFilters: facetFilters, numericFilters: numericFilters, tagFilters: tagFilters)
            } catch {
                XCTFail("case \(caseNumber): \(text): \(error)")
                continue
            }
            let selected = records.indices.filter { parsed.matches(records[$0]) }
            let selectedByArrays = records.indices.filter { fromArrays.matches(records[$0]) }
            XCTAssertEqual(selected, selectedByArrays, "case \(caseNumber): \(text) vs \(fromArrays)")
            XCTAssertEqual(try FilterParser.parse(parsed.rendered()), parsed, "case \(caseNumber): \(text)")
            if !selected.isEmpty, selected.count < records.count { informative += 1 }
        }
        XCTAssertGreaterThan(informative, 100, "too few cases select a proper, non-empty subset")
    }

    // MARK: Random expressions

    private static func clause(_ random: inout SeededGenerator) -> Clause {
        let count = random.chance(0.5) ? 1 : Int.random(in: 2...3, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            var clause = Clause(text: [], array: [], parameter: .facet)
            for _ in 0..<count {
                let attribute = random.pick(facetAttributes)
                let value = random.pick(facetValues)
                let negated = random.chance(0.3)
                clause.text.append((negated ? "NOT " : "") + name(attribute, &random) + ":" + facetValue(value, &random))
                let escaped = value.hasPrefix("-") ? "\\" + value : value
                clause.array.append(attribute + ":" + (negated ? "-" : "") + escaped)
            }
            return clause
        case 1:
            var clause = Clause(text: [], array: [], parameter: .numeric)
            for _ in 0..<count {
                let attribute = random.pick(numericAttributes)
                if random.chance(0.3) {
                    let bounds = [random.pick(numbers), random.pick(numbers)].sorted()
                    let text = attribute + ":" + number(bounds[0], &random) + " TO " + number(bounds[1], &random)
                    clause.text.append(text.replacingOccurrences(of: attribute, with: name(attribute, &random)))
                    clause.array.append(attribute + ":" + number(bounds[0], &random) + " TO " + number(bounds[1], &random))
                } else {
                    let op = random.pick(NumericOperator.allCases).rawValue
                    let value = random.pick(numbers)
                    clause.text.append(name(attribute, &random) + space(&random) + op + space(&random) + number(value, &random))
                    clause.array.append(attribute + space(&random) + op + space(&random) + number(value, &random))
                }
            }
            return clause
        default:
            var clause = Clause(text: [], array: [], parameter: .tag)
            for _ in 0..<count {
                let tag = random.pick(tags)
                let negated = random.chance(0.3)
                let spelled = random.chance(0.5) ? name("_tags", &random) + ":" + quoted(tag, &random) : quoted(tag, &random)
                clause.text.append((negated ? "NOT " : "") + spelled)
                clause.array.append((negated ? "-" : "") + (tag.hasPrefix("-") ? "\\" + tag : tag))
            }
            return clause
        }
    }

    private static func filtersString(_ clauses: [Clause], _ random: inout SeededGenerator) -> String {
        var parts: [String] = []
        var index = 0
        while index < clauses.count {
            let clause = clauses[index]
            if clause.text.count == 1, index + 1 < clauses.count, clauses[index + 1].text.count == 1, random.chance(0.3) {
                // An InstantSearch and-group: two single filters in one parenthesised AND.
                parts.append("( " + clause.text[0] + " AND " + clauses[index + 1].text[0] + " )")
                index += 2
                continue
            }
            let joined = clause.text.joined(separator: " OR ")
            let alone = clauses.count == 1 && random.chance(0.5)
            parts.append(clause.text.count == 1 && random.chance(0.5) || alone ? joined : "(" + space(&random) + joined + space(&random) + ")")
            index += 1
        }
        return parts.joined(separator: " AND ")
    }

    private static func arrays(_ clauses: [Clause], _ random: inout SeededGenerator) -> (JSON?, JSON?, JSON?) {
        var facet: [JSON] = []
        var numeric: [JSON] = []
        var tag: [JSON] = []
        for clause in clauses {
            let element: JSON = clause.array.count == 1 && random.chance(0.5)
                ? .string(clause.array[0]) : .array(clause.array.map { .string($0) })
            switch clause.parameter {
            case .facet: facet.append(element)
            case .numeric: numeric.append(element)
            case .tag:
                if random.chance(0.5) {
                    tag.append(element)
                } else {
                    // Tags may also travel in facetFilters as `_tags:` values.
                    let spelled = clause.array.map { text -> JSON in
                        .string(text.hasPrefix("-") ? "_tags:-" + text.dropFirst() : "_tags:" + text)
                    }
                    facet.append(.array(spelled))
                }
            }
        }
        func parameter(_ elements: [JSON]) -> JSON? {
            if elements.isEmpty { return nil }
            if elements.count == 1, case .string = elements[0] { return elements[0] }
            return .array(elements)
        }
        return (parameter(facet), parameter(numeric), parameter(tag))
    }

    // MARK: Random spellings

    private static func space(_ random: inout SeededGenerator) -> String {
        random.pick(["", " ", "  "])
    }

    private static func name(_ name: String, _ random: inout SeededGenerator) -> String {
        random.chance(0.5) ? name : quoted(name, &random)
    }

    private static func facetValue(_ value: String, _ random: inout SeededGenerator) -> String {
        let unquotable = !value.isEmpty && !["AND", "OR", "NOT", "TO"].contains(value)
            && value.allSatisfy { !$0.isWhitespace && !"():<>=!\"'".contains($0) }
        return unquotable && random.chance(0.5) ? value : quoted(value, &random)
    }

    private static func quoted(_ text: String, _ random: inout SeededGenerator) -> String {
        let quote: Character = random.chance(0.5) ? "\"" : "'"
        var quoted = String(quote)
        for character in text {
            if character == quote || character == "\\" { quoted.append("\\") }
            quoted.append(character)
        }
        quoted.append(quote)
        return quoted
    }

    private static func number(_ value: Double, _ random: inout SeededGenerator) -> String {
        guard value == value.rounded() else { return "\(value)" }
        return random.pick(["\(Int(value))", "\(Int(value)).0", "\(value)", "\(value)e0", "\(Int(value))E+0"])
    }

    // MARK: Random records

    private static func record(_ random: inout SeededGenerator) -> JSONRecordValues {
        var object: JSONObject = [:]
        for attribute in ["color", "brand"] where random.chance(0.8) {
            object[attribute] = random.chance(0.3)
                ? .array((0..<Int.random(in: 0...3, using: &random)).map { _ in facetRecordValue(&random) })
                : facetRecordValue(&random)
        }
        if random.chance(0.7) { object["meta"] = ["kind": facetRecordValue(&random)] }
        for attribute in ["price", "stock"] where random.chance(0.8) {
            object[attribute] = random.chance(0.2)
                ? .array([numericRecordValue(&random), numericRecordValue(&random)]) : numericRecordValue(&random)
        }
        if random.chance(0.6) {
            object["dims"] = .array((0..<Int.random(in: 1...2, using: &random)).map { _ in ["w": numericRecordValue(&random)] })
        }
        if random.chance(0.8) {
            object["_tags"] = .array((0..<Int.random(in: 0...3, using: &random)).map { _ in .string(random.pick(tags)) })
        }
        return JSONRecordValues(object)
    }

    private static func facetRecordValue(_ random: inout SeededGenerator) -> JSON {
        random.pick([.string(random.pick(facetValues)), .string(random.pick(facetValues).uppercased()),
                     .int(10), .double(3.5), .bool(true), .bool(false), .string("10.0"), .null])
    }

    private static func numericRecordValue(_ random: inout SeededGenerator) -> JSON {
        let value = random.pick(numbers)
        return random.pick([.double(value), value == value.rounded() ? .int(Int64(value)) : .double(value),
                            .string("\(value)"), .null])
    }
}
