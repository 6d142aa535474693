import QuarryFilters
import QuarryJSON

/// What narrows, counts or reorders a search beyond its text: filters, facets, geo, relevant sort.
///
/// Parsed from Algolia's parameter names plus Quarry's `disjunctiveFilters` and `hierarchicalFacets`
/// (what a session sends so that or-groups and hierarchical menus are counted in one pass). Facet
/// filters must name attributes declared in `attributesForFaceting`; the error names the attribute
/// and the setting to change.
public struct SearchRefinements: Sendable {
    /// `filters` AND `facetFilters` AND `numericFilters` AND `tagFilters`.
    public var filter = FilterExpression.all
    /// Each clause that holds adds one to the `filters` ranking criterion; nothing is excluded.
    public var optionalFilters: [[FilterAtom]] = []
    /// Or-groups whose own refinements are relaxed when counting their attribute.
    public var disjunctive: [DisjunctiveFacet] = []
    public var hierarchical: [HierarchicalFacet] = []
    /// Attributes to count; nil counts none.
    public var facets: [String]? = nil
    /// Attributes named in `facets` that are not counted, each with why. Algolia leaves them out
    /// silently; the response says so in `facetsNotCounted` (protocol/methods/search.md).
    public var facetsNotCounted: [(attribute: String, reason: String)] = []
    public var maxValuesPerFacet: Int
    public var sortFacetValuesByAlpha = false
    public var geo: GeoQuery? = nil
    /// Per-query override on a virtual replica.
    public var relevancyStrictness: Int? = nil

    public struct DisjunctiveFacet: Sendable {
        public var attribute: String
        public var filter: FilterExpression
        /// The values the group selects on its own attribute (listed with 0 when they match nothing).
        public var selected: [String]
    }

    public struct HierarchicalFacet: Sendable {
        public var attributes: [String]
        public var separator: String
        /// Components of the selected path; empty when nothing is selected.
        public var path: [String]

        /// The selection down to level `level`, joined as stored in that level's attribute.
        package func value(atLevel level: Int) -> String { path[0...level].joined(separator: separator) }
    }

    public init(settings: IndexSettings) {
        maxValuesPerFacet = settings.maxValuesPerFacet
    }

    /// True when the plain text search path answers alone.
    package var isEmpty: Bool {
        filter.isEmpty && optionalFilters.isEmpty && disjunctive.isEmpty && hierarchical.isEmpty && facets == nil && geo == nil
    }

    public init(json: JSONObject, settings: IndexSettings) throws(BackendError) {
        self.init(settings: settings)
        let declared = Set(settings.attributesForFaceting.map(\.attribute))
        func checked(_ expression: FilterExpression, _ name: String) throws(BackendError) -> FilterExpression {
            if let missing = expression.facetAttributes.sorted().first(where: { !declared.contains($0) }) {
                throw Self.undeclared(missing, parameter: name)
            }
            return expression
        }
        func parsed(_ name: String, _ parse: () throws(FilterSyntaxError) -> FilterExpression) throws(BackendError) -> FilterExpression {
            let expression: FilterExpression
            do { expression = try parse() } catch { throw .invalidParameter(name: name, expected: "a valid filter (\(error))") }
            return try checked(expression, name)
        }
        if let text = json["filters"], !text.isNull {
            guard let string = text.stringValue else { throw .invalidParameter(name: "filters", expected: "a string") }
            filter = filter.combined(with: try parsed("filters") { () throws(FilterSyntaxError) in try FilterParser.parse(string) })
        }
        for name in ["facetFilters", "numericFilters", "tagFilters"] {
            guard let value = json[name], !value.isNull else { continue }
            let expression = try parsed(name) { () throws(FilterSyntaxError) in
                switch name {
                case "facetFilters": try FilterExpression(facetFilters: value)
                case "numericFilters": try FilterExpression(numericFilters: value)
                default: try FilterExpression(tagFilters: value)
                }
            }
            filter = filter.combined(with: expression)
        }
        if let value = json["optionalFilters"], !value.isNull {
            optionalFilters = try parsed("optionalFilters") { () throws(FilterSyntaxError) in try FilterExpression(facetFilters: value) }.clauses
        }
        if let value = json["disjunctiveFilters"], !value.isNull {
            guard let object = value.objectValue else {
                throw .invalidParameter(name: "disjunctiveFilters", expected: "an object of attribute: filters string")
            }
            for (attribute, text) in object {
                guard let string = text.stringValue else {
                    throw .invalidParameter(name: "disjunctiveFilters", expected: "an object of attribute: filters string")
                }
                guard declared.contains(attribute) else { throw Self.undeclared(attribute, parameter: "disjunctiveFilters") }
                let expression = try parsed("disjunctiveFilters") { () throws(FilterSyntaxError) in try FilterParser.parse(string) }
                let selected = expression.clauses.joined().compactMap { atom -> String? in
                    guard !atom.isNegated, case .facet(let name, let value) = atom.condition, name == attribute else { return nil }
                    return value.text
                }
                disjunctive.append(DisjunctiveFacet(attribute: attribute, filter: expression, selected: selected))
            }
        }
        if let value = json["hierarchicalFacets"], !value.isNull {
            hierarchical = try Self.hierarchicalFacets(value, declared: declared)
        }
        if let value = json["facets"], !value.isNull, value.stringValue != "" || value.arrayValue != nil {
            let list = try ParameterReader(json).stringList("facets") ?? []
            // Like Algolia, attributes not declared for faceting (or only `filterOnly`) are not counted.
            let countable = settings.attributesForFaceting.filter { $0.modifier != .filterOnly }.map(\.attribute)
            facets = list.contains("*") ? countable : list.filter { countable.contains($0) }
            for attribute in list where attribute != "*" && !countable.contains(attribute)
                && !facetsNotCounted.contains(where: { $0.attribute == attribute }) {
                facetsNotCounted.append((attribute, Self.notCounted(attribute, filterOnly: declared.contains(attribute))))
            }
        }
        let reader = ParameterReader(json)
        if let v = try reader.int("maxValuesPerFacet", min: 0, max: 1000, expected: "an integer between 0 and 1000") {
            maxValuesPerFacet = v
        }
        if let v = try reader.string("sortFacetValuesBy") {
            guard v == "count" || v == "alpha" else { throw .invalidParameter(name: "sortFacetValuesBy", expected: "\"count\" or \"alpha\"") }
            sortFacetValuesByAlpha = v == "alpha"
        }
        if let v = try reader.int("relevancyStrictness", min: 0, max: 100, expected: "an integer between 0 and 100") {
            relevancyStrictness = v
        }
        geo = try GeoQuery(json: json)
    }

    /// `facetsNotCounted` as the response carries it, {attribute: reason}; nil when every one is counted.
    public var facetsNotCountedJSON: JSON? {
        guard !facetsNotCounted.isEmpty else { return nil }
        var object = JSONObject()
        for (attribute, reason) in facetsNotCounted { object[attribute] = .string(reason) }
        return .object(object)
    }

    static func notCounted(_ attribute: String, filterOnly: Bool) -> String {
        filterOnly
            ? "'\(attribute)' is declared as filterOnly(\(attribute)), which filters but is not counted; "
                + "declare it as \"\(attribute)\" in the index setting attributesForFaceting to count it"
            : "'\(attribute)' is not declared for faceting; add \"\(attribute)\" to the index setting attributesForFaceting to count it"
    }

    static func undeclared(_ attribute: String, parameter: String) -> BackendError {
        .invalidParameter(name: parameter, expected: "filters on attributes declared for faceting: '\(attribute)' is not; "
            + "add \"\(attribute)\" (or \"filterOnly(\(attribute))\") to the index setting attributesForFaceting")
    }

    private static func hierarchicalFacets(_ value: JSON, declared: Set<String>) throws(BackendError) -> [HierarchicalFacet] {
        let expected = "an array of {attributes: [string], separator: string, path: string or null}"
        guard let items = value.arrayValue else { throw .invalidParameter(name: "hierarchicalFacets", expected: expected) }
        var result: [HierarchicalFacet] = []
        for item in items {
            guard let attributes = item["attributes"]?.arrayValue?.compactMap(\.stringValue), !attributes.isEmpty,
                  attributes.count == item["attributes"]?.arrayValue?.count
            else { throw .invalidParameter(name: "hierarchicalFacets", expected: expected) }
            if let missing = attributes.first(where: { !declared.contains($0) }) {
                throw undeclared(missing, parameter: "hierarchicalFacets")
            }
            let separator = item["separator"]?.stringValue ?? " > "
            var path: [String] = []
            if let text = item["path"]?.stringValue, !text.isEmpty {
                path = Self.split(text, separator).map { $0.trimmingSpaces }
                path = Array(path.prefix(attributes.count))
            } else if let p = item["path"], !p.isNull, p.stringValue == nil {
                throw .invalidParameter(name: "hierarchicalFacets", expected: expected)
            }
            result.append(HierarchicalFacet(attributes: attributes, separator: separator, path: path))
        }
        return result
    }

    /// `text` cut at every occurrence of `separator` (which is not empty).
    static func split(_ text: String, _ separator: String) -> [String] {
        guard !separator.isEmpty else { return [text] }
        var parts: [String] = [], rest = Substring(text)
        while let range = rest.firstRange(of: separator) {
            parts.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        parts.append(String(rest))
        return parts
    }
}
