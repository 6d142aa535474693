import QuarryText

/// Which words of one value did Typesense mark, as the engine's `TokenMatch` list?
///
/// The value is tokenised by the engine's own `TextMatcher`, so word boundaries, snippet windows and
/// `fullyHighlighted` follow the engine. Typesense decides which words matched: unmarked words carry
/// no query word, even where the engine's matcher would have matched them. For a marked word the
/// engine's matcher also matches, the engine decides which query words it stands for and how much
/// of it to mark (a typo on a prefix word marks `appl`y, where Typesense marks the whole word).
/// Otherwise (Typesense's marks can span symbols, `[boom-an]d`, or allow a first-letter typo,
/// `jiver` → `giver`) the word is marked from its start to where Typesense's mark ends inside it,
/// and stands for the query words the engine's rules find in the whole marked text run together,
/// failing that for the nearest query word by edit distance.
enum HighlightTokens {
    static func matches(in text: String, spans: [(Int, Int)], words: [QueryWord]) -> [TokenMatch] {
        var matcher = TextMatcher(words: words)
        var tokens = matcher.matches(in: text)
        guard !spans.isEmpty else {
            for i in tokens.indices { tokens[i].markEnd = tokens[i].start; tokens[i].words = 0 }
            return tokens
        }
        let utf8 = Array(text.utf8)
        var spanWords: [UInt64?] = Array(repeating: nil, count: spans.count)
        // Tokens and spans both run in text order, spans without overlap: one sweep, not tokens × spans.
        var first = 0
        for i in tokens.indices {
            let engine = tokens[i]
            var token = engine
            token.markEnd = token.start
            token.words = 0
            while first < spans.count && spans[first].1 <= token.start { first += 1 }
            var s = first
            while s < spans.count && spans[s].0 < token.end {
                let span = spans[s]
                s += 1
                guard span.1 > token.start else { continue }
                if engine.words != 0 {
                    // Typesense says the word matched; the engine says which query words and how much to mark.
                    token = engine
                    break
                }
                token.markEnd = max(token.markEnd, min(token.end, span.1))
                if spanWords[s - 1] == nil { spanWords[s - 1] = queryWords(of: utf8[span.0..<span.1], words: words) }
                token.words |= spanWords[s - 1] ?? 0
            }
            tokens[i] = token
        }
        return tokens
    }

    /// The query words a marked text stands for: by the engine's rules on its letters run together, else the nearest.
    static func queryWords(of marked: ArraySlice<UInt8>, words: [QueryWord]) -> UInt64 {
        guard !words.isEmpty else { return 0 }
        let joined = Normalizer.words(of: String(decoding: marked, as: UTF8.self)).joined()
        guard !joined.isEmpty else { return 0 }
        var matcher = TextMatcher(words: words)
        let found = matcher.matches(in: String(decoding: joined, as: UTF8.self)).reduce(UInt64(0)) { $0 | $1.words }
        if found != 0 { return found }
        var best = 0, bestDistance = Int.max
        for (w, word) in words.enumerated() {
            // A prefix word stands for the start of the marked text only.
            let target = word.isPrefix ? Array(joined.prefix(word.bytes.count)) : Array(joined)
            let distance = editDistance(word.bytes, target)
            if distance < bestDistance { best = w; bestDistance = distance }
        }
        return 1 << UInt64(best)
    }

    /// Levenshtein distance over bytes (words are short).
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count), current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
