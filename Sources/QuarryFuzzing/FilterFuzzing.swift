import QuarryFilters
import QuarryJSON

/// The filter language's oracle: an expression the parser or the array forms
/// accept renders to canonical text that parses back to the same expression,
/// and that rendering is stable.
enum FilterFuzzing {
    static func run(_ data: [UInt8]) throws(OracleViolation) {
        var input = FuzzBytes(data)
        let mode = input.byte() % 4
        let rest = input.rest
        let expression: FilterExpression
        if mode == 0 {
            guard let parsed = try? FilterParser.parse(String(decoding: rest, as: UTF8.self)) else { return }
            expression = parsed
        } else {
            guard let json = try? JSONParser.parse(rest) else { return }
            let built: FilterExpression?
            switch mode {
            case 1: built = try? FilterExpression(facetFilters: json)
            case 2: built = try? FilterExpression(numericFilters: json)
            default: built = try? FilterExpression(tagFilters: json)
            }
            guard let built else { return }
            expression = built
        }
        let text = expression.rendered()
        let reparsed: FilterExpression
        do {
            reparsed = try FilterParser.parse(text)
        } catch {
            throw OracleViolation("canonical rendering does not parse (\(error)): \(text)")
        }
        try expect(reparsed == expression, "canonical rendering \(text) parses to \(reparsed), not \(expression)")
        try expect(reparsed.rendered() == text, "rendering is not stable: \(text)")
    }
}
