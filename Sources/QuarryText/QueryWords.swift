import QuarrySearchContract

/// What is the user looking for, word by word?
///
/// Splits the query with the same normaliser as the index and decides per word whether it may match as
/// a prefix (`queryType`; a trailing space ends the last word) and how many typos it allows.
///
/// Shared (QuarryText) so the Typesense backend highlights with the engine's reading of the query.
package struct QueryWord: Sendable {
    package let bytes: [UInt8]
    package let text: String
    package let isPrefix: Bool
    package let maxTypos: Int
}

package enum QueryWords {
    /// Queries longer than this many words ignore the rest (bounded per-document counters).
    static let maxWords = 32

    package static func parse(_ parameters: SearchParameters) -> [QueryWord] {
        let words = Normalizer.words(of: parameters.query).prefix(maxWords)
        let endsInWord = parameters.query.unicodeScalars.last.map { scalar -> Bool in
            var scratch: [UInt8] = []
            return Normalizer.fold(scalar, into: &scratch)
        } ?? false
        let disabled = Set(parameters.disableTypoToleranceOnWords.flatMap { Normalizer.words(of: $0) })
        return words.enumerated().map { index, bytes in
            let isLast = index == words.count - 1
            let isPrefix: Bool = switch parameters.queryType {
            case .prefixAll: true
            case .prefixNone: false
            case .prefixLast: isLast && endsInWord
            }
            let text = String(decoding: bytes, as: UTF8.self)
            return QueryWord(bytes: bytes, text: text, isPrefix: isPrefix,
                             maxTypos: maxTypos(text, bytes: bytes, disabled: disabled, parameters))
        }
    }

    /// Whether the query holds text but no word: only emoji, symbols or punctuation, which are not
    /// indexed (as in Algolia without `separatorsToIndex`). Such a query matches nothing and the response
    /// says why (`queryHasNoWords`, protocol/methods/search.md); only a blank query matches every record.
    package static func holdsNoWord(_ query: String) -> Bool {
        query.unicodeScalars.contains { !$0.properties.isWhitespace } && Normalizer.words(of: query).isEmpty
    }

    static func maxTypos(_ text: String, bytes: [UInt8], disabled: Set<[UInt8]>, _ parameters: SearchParameters) -> Int {
        if case .disabled = parameters.typoTolerance { return 0 }
        if disabled.contains(bytes) { return 0 }
        if !parameters.allowTyposOnNumericTokens && bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return 0 }
        let letters = text.unicodeScalars.count
        if letters >= parameters.minWordSizefor2Typos { return 2 }
        if letters >= parameters.minWordSizefor1Typo { return 1 }
        return 0
    }
}
