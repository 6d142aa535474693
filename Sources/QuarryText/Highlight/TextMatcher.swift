/// Which words of one stored string does the query match, and which part of each?
///
/// Re-tokenises the original value (only for hits on the page) and matches each word against every
/// query word the way the index did: exact, prefix (only the typed part is marked), or within the
/// word's typo budget. Offsets are UTF-8 byte offsets into the value.
///
/// Shared (QuarryText) so the Typesense backend can turn its server's marked values into these.
package struct TokenMatch: Sendable {
    package var start: Int
    package var end: Int
    /// End of the marked part; equal to `start` when the word is not matched.
    package var markEnd: Int
    /// Bit `w` set when query word `w` matched this word.
    package var words: UInt64

    package init(start: Int, end: Int, markEnd: Int, words: UInt64) {
        self.start = start
        self.end = end
        self.markEnd = markEnd
        self.words = words
    }

    package var isMatched: Bool { markEnd > start }
    package var isFullyMarked: Bool { markEnd == end }
}

/// Shared so the Typesense backend tokenises values, and decides which words matched, as the highlighter does.
package struct TextMatcher {
    let words: [QueryWord]
    private var tokenizer = Tokenizer()

    package init(words: [QueryWord]) { self.words = words }

    package mutating func matches(in text: String) -> [TokenMatch] {
        var result: [TokenMatch] = []
        let words = self.words
        tokenizer.forEachWord(in: text) { token, start, end in
            var match = TokenMatch(start: start, end: end, markEnd: start, words: 0)
            var bestLength = 0
            for (w, word) in words.enumerated() {
                guard let length = Self.matchedLength(word, token) else { continue }
                match.words |= 1 << UInt64(w)
                bestLength = max(bestLength, length)
            }
            if bestLength > 0 {
                match.markEnd = bestLength >= token.count ? end : Self.originalEnd(text, start: start, normalizedLength: bestLength)
            }
            result.append(match)
        }
        return result
    }

    /// How many normalised bytes of `token` the word covers, or nil when it does not match.
    static func matchedLength(_ word: QueryWord, _ token: [UInt8]) -> Int? {
        if token == word.bytes { return token.count }
        if word.isPrefix && token.count > word.bytes.count && token.starts(with: word.bytes) { return word.bytes.count }
        guard word.maxTypos > 0,
              let found = TypoDistance.distance(word.bytes, token, prefix: word.isPrefix, limit: word.maxTypos)
        else { return nil }
        return max(found.length, 1)
    }

    /// The original offset where the first `normalizedLength` normalised bytes of the word at `start` end.
    static func originalEnd(_ text: String, start: Int, normalizedLength: Int) -> Int {
        var text = text
        return text.withUTF8 { utf8 in
            var folded: [UInt8] = []
            var index = start
            while index < utf8.count {
                let (scalar, length) = Tokenizer.decode(utf8, at: index)
                guard Normalizer.fold(scalar, into: &folded) else { break }
                index += length
                if folded.count >= normalizedLength { break }
            }
            return index
        }
    }
}
