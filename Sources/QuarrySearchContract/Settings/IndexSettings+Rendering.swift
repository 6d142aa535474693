import QuarryJSON

extension IndexSettings {
    /// Every setting under Algolia's current names (as its getSettings answers),
    /// then the unsupported ones exactly as they were given.
    public func json() -> JSONObject {
        var object: JSONObject = [:]
        object["searchableAttributes"] = .array(searchableAttributes.map { .string(SettingsSyntax.render($0)) })
        object["attributesToRetrieve"] = attributesToRetrieve.map(Self.strings) ?? .null
        object["ranking"] = .array(ranking.map { .string(SettingsSyntax.render($0)) })
        object["customRanking"] = .array(customRanking.map { .string(SettingsSyntax.render($0)) })
        object["queryType"] = .string(queryType.rawValue)
        object["typoTolerance"] = switch typoTolerance {
        case .enabled: .bool(true)
        case .disabled: .bool(false)
        case .min: .string("min")
        case .strict: .string("strict")
        }
        object["minWordSizefor1Typo"] = JSON(minWordSizefor1Typo)
        object["minWordSizefor2Typos"] = JSON(minWordSizefor2Typos)
        object["allowTyposOnNumericTokens"] = .bool(allowTyposOnNumericTokens)
        object["disableTypoToleranceOnAttributes"] = Self.strings(disableTypoToleranceOnAttributes)
        object["disableTypoToleranceOnWords"] = Self.strings(disableTypoToleranceOnWords)
        object["attributesToHighlight"] = attributesToHighlight.map(Self.strings) ?? .null
        object["attributesToSnippet"] = .array(attributesToSnippet.map { .string(SettingsSyntax.render($0)) })
        object["highlightPreTag"] = .string(highlightPreTag)
        object["highlightPostTag"] = .string(highlightPostTag)
        object["snippetEllipsisText"] = .string(snippetEllipsisText)
        object["hitsPerPage"] = JSON(hitsPerPage)
        object["paginationLimitedTo"] = JSON(paginationLimitedTo)
        object["distinct"] = JSON(distinct)
        object["attributeForDistinct"] = attributeForDistinct.map { .string($0) } ?? .null
        object["attributesForFaceting"] = .array(attributesForFaceting.map { .string(SettingsSyntax.render($0)) })
        object["maxValuesPerFacet"] = JSON(maxValuesPerFacet)
        object["replicas"] = .array(replicas.map { .string(SettingsSyntax.render($0)) })
        object["relevancyStrictness"] = JSON(relevancyStrictness)
        if let primary { object["primary"] = .string(primary) }
        for (name, value) in unsupported where object[name] == nil {
            object[name] = value
        }
        return object
    }

    private static func strings(_ list: [String]) -> JSON { .array(list.map { .string($0) }) }
}
