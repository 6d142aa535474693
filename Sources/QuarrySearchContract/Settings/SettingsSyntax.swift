/// The small string syntaxes inside Algolia settings (`unordered(a)`,
/// `"a,b"`, `desc(x)`, `searchable(x)`, `virtual(x)`, `"attr:N"`), both ways.
enum SettingsSyntax {
    /// `inner` of `"name(inner)"`, or nil.
    static func unwrap(_ text: String, _ function: String) -> String? {
        let trimmed = text.trimmingSpaces
        guard trimmed.hasPrefix(function + "("), trimmed.hasSuffix(")") else { return nil }
        return String(trimmed.dropFirst(function.count + 1).dropLast()).trimmingSpaces
    }

    /// `"title"`, `"unordered(title)"`, `"title,subtitle"`, `"unordered(a),unordered(b)"`,
    /// `"unordered(a,b)"`. A group is unordered when any of its parts is (Algolia
    /// has one flag per entry).
    static func searchableAttribute(_ text: String) -> SearchableAttribute? {
        var paths: [String] = []
        var ordered = true
        for part in splitAtTopLevelCommas(text) {
            var inner = [part]
            if let unwrapped = unwrap(part, "unordered") {
                ordered = false
                inner = unwrapped.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            }
            for path in inner.map(\.trimmingSpaces) {
                guard isAttributePath(path) else { return nil }
                paths.append(path)
            }
        }
        return paths.isEmpty ? nil : SearchableAttribute(paths: paths, ordered: ordered)
    }

    /// `"unordered(a,b),c"` is `["unordered(a,b)", "c"]`: commas inside parentheses stay.
    private static func splitAtTopLevelCommas(_ text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        for character in text {
            switch character {
            case "(": depth += 1
            case ")": depth = max(0, depth - 1)
            case "," where depth == 0:
                parts.append(current)
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        parts.append(current)
        return parts
    }

    static func render(_ attribute: SearchableAttribute) -> String {
        attribute.paths.map { attribute.ordered ? $0 : "unordered(\($0))" }.joined(separator: ",")
    }

    static func rankingCriterion(_ text: String) -> RankingCriterion? {
        switch text.trimmingSpaces {
        case "typo": return .typo
        case "geo": return .geo
        case "words": return .words
        case "filters": return .filters
        case "proximity": return .proximity
        case "attribute": return .attribute
        case "exact": return .exact
        case "custom": return .custom
        default:
            if let inner = unwrap(text, "asc"), isAttributePath(inner) { return .asc(inner) }
            if let inner = unwrap(text, "desc"), isAttributePath(inner) { return .desc(inner) }
            return nil
        }
    }

    static func render(_ criterion: RankingCriterion) -> String {
        switch criterion {
        case .typo: "typo"
        case .geo: "geo"
        case .words: "words"
        case .filters: "filters"
        case .proximity: "proximity"
        case .attribute: "attribute"
        case .exact: "exact"
        case .custom: "custom"
        case .asc(let attribute): "asc(\(attribute))"
        case .desc(let attribute): "desc(\(attribute))"
        }
    }

    static func customRanking(_ text: String) -> CustomRankingCriterion? {
        if let inner = unwrap(text, "asc"), isAttributePath(inner) {
            return CustomRankingCriterion(attribute: inner, ascending: true)
        }
        if let inner = unwrap(text, "desc"), isAttributePath(inner) {
            return CustomRankingCriterion(attribute: inner, ascending: false)
        }
        return nil
    }

    static func render(_ criterion: CustomRankingCriterion) -> String {
        criterion.ascending ? "asc(\(criterion.attribute))" : "desc(\(criterion.attribute))"
    }

    /// `afterDistinct(...)` is accepted and dropped: Quarry computes facets one way.
    static func facetAttribute(_ text: String) -> FacetAttribute? {
        let text = unwrap(text, "afterDistinct") ?? text
        if let inner = unwrap(text, "searchable"), isAttributePath(inner) {
            return FacetAttribute(attribute: inner, modifier: .searchable)
        }
        if let inner = unwrap(text, "filterOnly"), isAttributePath(inner) {
            return FacetAttribute(attribute: inner, modifier: .filterOnly)
        }
        let plain = text.trimmingSpaces
        return isAttributePath(plain) ? FacetAttribute(attribute: plain) : nil
    }

    static func render(_ facet: FacetAttribute) -> String {
        switch facet.modifier {
        case .none: facet.attribute
        case .searchable: "searchable(\(facet.attribute))"
        case .filterOnly: "filterOnly(\(facet.attribute))"
        }
    }

    /// `"body"` (10 words) or `"body:20"`.
    static func snippetAttribute(_ text: String) -> SnippetAttribute? {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let attribute = String(parts[0]).trimmingSpaces
        guard isAttributePath(attribute) else { return nil }
        guard parts.count == 2 else { return SnippetAttribute(attribute: attribute) }
        guard let words = Int(String(parts[1]).trimmingSpaces), words >= 0 else { return nil }
        return SnippetAttribute(attribute: attribute, words: words)
    }

    static func render(_ snippet: SnippetAttribute) -> String { "\(snippet.attribute):\(snippet.words)" }

    static func replica(_ text: String) -> ReplicaReference? {
        if let inner = unwrap(text, "virtual") {
            return inner.isEmpty ? nil : ReplicaReference(name: inner, isVirtual: true)
        }
        let name = text.trimmingSpaces
        return name.isEmpty ? nil : ReplicaReference(name: name, isVirtual: false)
    }

    static func render(_ replica: ReplicaReference) -> String {
        replica.isVirtual ? "virtual(\(replica.name))" : replica.name
    }

    /// A dotted path with no empty segment and none of the syntax characters.
    static func isAttributePath(_ path: String) -> Bool {
        !path.isEmpty && !path.contains(where: { "(),".contains($0) })
            && !path.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty)
    }
}
