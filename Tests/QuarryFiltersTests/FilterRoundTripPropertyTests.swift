import QuarryFilters
import XCTest

/// Random expressions and random text, seeded:
/// 1. any expression built from atoms with awkward names and values (quotes,
///    backslashes, keywords, syntax characters, non-ASCII) renders to text
///    that parses back to the same expression;
/// 2. arbitrary text made of the language's own characters either parses or
///    fails with a position inside the text, and never traps; what parses
///    renders and parses back to the same expression.
final class FilterRoundTripPropertyTests: XCTestCase {
    private static let fragments = ["a", "B", " ", "\"", "'", "\\", ":", "(", ")", "<", "=", "!", "AND", "OR",
                                    "NOT", "TO", "é", "👍🏽", "\u{301}", "-", ".", "1", "e", "_tags", "\t"]

    func testRenderedExpressionsParseBack() throws {
        var random = SeededGenerator(seed: 7)
        for caseNumber in 0..<300 {
            let clauses = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                let kind = random.pick(FilterKind.allCases)
                return (0..<Int.random(in: 1...3, using: &random)).map { _ in Self.atom(kind, &random) }
            }
            let expression = FilterExpression(clauses: clauses)
            let text = expression.rendered()
            XCTAssertEqual(try FilterParser.parse(text), expression, "case \(caseNumber): \(text)")
        }
    }

    func testArbitraryTextParsesOrFailsInsideTheText() {
        var random = SeededGenerator(seed: 11)
        var parsedCount = 0
        for _ in 0..<2000 {
            let text = (0..<Int.random(in: 0...12, using: &random)).map { _ in random.pick(Self.fragments) }.joined()
            do {
                let expression = try FilterParser.parse(text)
                parsedCount += 1
                XCTAssertEqual(try FilterParser.parse(expression.rendered()), expression, text)
            } catch {
                XCTAssert((0...text.unicodeScalars.count).contains(error.position), "\(text): \(error)")
                XCTAssertFalse(error.message.isEmpty)
            }
        }
        XCTAssertGreaterThan(parsedCount, 50)
    }

    private static func atom(_ kind: FilterKind, _ random: inout SeededGenerator) -> FilterAtom {
        let negated = random.chance(0.3)
        switch kind {
        case .facet:
            let value: FacetValue = switch Int.random(in: 0..<3, using: &random) {
            case 0: .string(text(&random))
            case 1: .number(number(&random))
            default: .bool(random.chance(0.5))
            }
            return .facet(name(&random), value, negated: negated)
        case .numeric:
            if random.chance(0.5) {
                return .comparison(name(&random), random.pick(NumericOperator.allCases), number(&random), negated: negated)
            }
            return .range(name(&random), number(&random), number(&random), negated: negated)
        case .tag:
            return .tag(text(&random), negated: negated)
        }
    }

    private static func text(_ random: inout SeededGenerator) -> String {
        (0..<Int.random(in: 0...5, using: &random)).map { _ in random.pick(fragments) }.joined()
    }

    /// A non-empty name that is not `_tags` (a facet on `_tags` is a tag).
    private static func name(_ random: inout SeededGenerator) -> String {
        let name = "n" + text(&random)
        return name == "_tags" ? "n" : name
    }

    private static func number(_ random: inout SeededGenerator) -> Double {
        random.pick([0, -1, 20, 10.5, 1e-7, -2.5e300, 1234567890123456768, 0.1 + 0.2, Double.random(in: -1e6...1e6, using: &random)])
    }
}
