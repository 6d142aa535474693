import QuarryJSON

/// Algolia's older array parameters: `facetFilters`, `numericFilters` and
/// `tagFilters`. Each is a string (one filter) or an array whose strings are
/// ANDed and whose nested arrays of strings are ORed:
/// `[["a:1", "a:2"], "b:3"]` is `(a:1 OR a:2) AND b:3`.
///
/// - `facetFilters` elements are `attribute:value`, split at the first `:`,
///   the value taken raw (no quotes). A value starting with `-` negates; `\-`
///   stands for a literal leading `-`. The value is typed as an unquoted
///   value of the `filters` string would be; `_tags:v` is a tag, so it cannot
///   share a nested (OR) array with facet filters, as in the `filters` string.
/// - `numericFilters` elements are one numeric filter of the `filters`
///   syntax: `price>10`, `price:1 TO 5` (`NOT` is accepted as well).
/// - `tagFilters` elements are raw tags; `-t` negates, `\-t` is the tag `-t`.
///
/// Empty nested arrays are ignored. Errors name the element, e.g.
/// `facetFilters[1][0]: expected ':' after the attribute name at 5`, the
/// position being an offset in that element's string.
extension FilterExpression {
    public init(facetFilters: JSON? = nil, numericFilters: JSON? = nil, tagFilters: JSON? = nil)
        throws(FilterSyntaxError)
    {
        var clauses: [[FilterAtom]] = []
        clauses += try Self.clauses(of: facetFilters, named: "facetFilters", Self.facetFilter)
        clauses += try Self.clauses(of: numericFilters, named: "numericFilters", Self.numericFilter)
        clauses += try Self.clauses(of: tagFilters, named: "tagFilters", Self.tagFilter)
        self.init(clauses: clauses)
    }

    private typealias ElementParser = (String) throws(FilterSyntaxError) -> FilterAtom

    private static func clauses(of json: JSON?, named name: String, _ parse: ElementParser)
        throws(FilterSyntaxError) -> [[FilterAtom]]
    {
        switch json {
        case nil, .null?:
            return []
        case .string(let text)?:
            return [[try element(text, at: name, parse)]]
        case .array(let items)?:
            var clauses: [[FilterAtom]] = []
            for (index, item) in items.enumerated() {
                let path = "\(name)[\(index)]"
                switch item {
                case .string(let text):
                    clauses.append([try element(text, at: path, parse)])
                case .array(let alternatives):
                    var clause: [FilterAtom] = []
                    for (inner, alternative) in alternatives.enumerated() {
                        guard case .string(let text) = alternative else {
                            throw FilterSyntaxError(position: 0, message: "\(path)[\(inner)]: expected a string")
                        }
                        clause.append(try element(text, at: "\(path)[\(inner)]", parse))
                    }
                    // As in the `filters` string (where `_tags:v` is a tag too): one kind per OR.
                    if let first = clause.first, let other = clause.first(where: { $0.kind != first.kind }) {
                        throw FilterSyntaxError(
                            position: 0,
                            message: "\(path): cannot mix \(first.kind.rawValue) and \(other.kind.rawValue) filters in one OR")
                    }
                    if !clause.isEmpty { clauses.append(clause) }
                default:
                    throw FilterSyntaxError(position: 0, message: "\(path): expected a string or an array of strings")
                }
            }
            return clauses
        case let other?:
            throw FilterSyntaxError(position: 0, message: "\(name): expected a string or an array, not \(other.kindName)")
        }
    }

    /// Runs one element's parser and prefixes its errors with the element's path.
    private static func element(_ text: String, at path: String, _ parse: ElementParser)
        throws(FilterSyntaxError) -> FilterAtom
    {
        do {
            return try parse(text)
        } catch {
            throw FilterSyntaxError(position: error.position, message: "\(path): \(error.message)")
        }
    }

    private static func facetFilter(_ text: String) throws(FilterSyntaxError) -> FilterAtom {
        guard let colon = text.firstIndex(of: ":") else {
            throw FilterSyntaxError(position: text.unicodeScalars.count, message: "expected ':' after the attribute name")
        }
        let attribute = String(text[..<colon])
        guard !attribute.isEmpty else {
            throw FilterSyntaxError(position: 0, message: "expected an attribute name before ':'")
        }
        let (raw, negated) = signedValue(text[text.index(after: colon)...])
        guard !raw.isEmpty else {
            throw FilterSyntaxError(position: text.unicodeScalars.count, message: "expected a value after ':'")
        }
        let position = text.unicodeScalars.distance(from: text.startIndex, to: colon) + 1
        let value: FacetValue
        if let number = FilterNumber.parse(raw) {
            guard number.isFinite else { throw FilterSyntaxError(position: position, message: "number out of range") }
            value = .number(number)
        } else {
            value = raw == "true" ? .bool(true) : raw == "false" ? .bool(false) : .string(raw)
        }
        if attribute == FilterAtom.tagsAttribute { return .tag(raw, negated: negated) }
        return .facet(attribute, value, negated: negated)
    }

    private static func numericFilter(_ text: String) throws(FilterSyntaxError) -> FilterAtom {
        let atom = try FilterParser.parseAtom(text)
        guard atom.kind == .numeric else {
            throw FilterSyntaxError(position: 0, message: "expected a numeric comparison or range")
        }
        return atom
    }

    private static func tagFilter(_ text: String) throws(FilterSyntaxError) -> FilterAtom {
        let (tag, negated) = signedValue(text[...])
        guard !tag.isEmpty else { throw FilterSyntaxError(position: text.unicodeScalars.count, message: "expected a tag") }
        return .tag(tag, negated: negated)
    }

    /// A leading `-` negates; then a leading `\-` is a literal `-` (so
    /// `-\-x` is NOT `-x`).
    private static func signedValue(_ text: Substring) -> (String, negated: Bool) {
        var value = text
        let negated = value.hasPrefix("-")
        if negated { value = value.dropFirst() }
        if value.hasPrefix("\\-") { value = value.dropFirst() }
        return (String(value), negated)
    }
}
