import QuarryText
/// How does one document match the query, read from its own token list?
///
/// Postings give typo, exact and attribute for every candidate cheaply; this per-document pass adds what
/// needs positions: `proximity`, per-word details for `_rankingInfo`, and attribute restrictions
/// (`restrictSearchableAttributes`). It only runs for the few documents that can still reach the page.
struct DocumentMatch {
    var typos = 0
    var exact = 0
    var attribute = UInt16.max
    var proximity = 0
    var matchedWords = 0
}

struct DocumentMatcher {
    /// Distances at or above this count the same: "not near".
    static let proximityCap = 8

    let segment: Segment
    let words: [MatchedTerms]
    let layout: SearchableLayout
    /// Slots a word may match in; nil allows all.
    let allowedSlots: Set<Int>?
    /// Per word, the locations it matched in the current document (reused between documents).
    private var locations: [[UInt16]]
    private var wordTypos: [Int]
    private var wordExact: [Bool]

    init(segment: Segment, words: [MatchedTerms], layout: SearchableLayout, allowedSlots: Set<Int>?) {
        self.segment = segment
        self.words = words
        self.layout = layout
        self.allowedSlots = allowedSlots
        locations = Array(repeating: [], count: words.count)
        wordTypos = Array(repeating: 0, count: words.count)
        wordExact = Array(repeating: false, count: words.count)
    }

    mutating func evaluate(_ ordinal: Int) -> DocumentMatch {
        for w in words.indices { locations[w].removeAll(keepingCapacity: true); wordTypos[w] = Int.max; wordExact[w] = false }
        var match = DocumentMatch()
        segment.positions.forEachToken(of: ordinal) { term, raw in
            let location = raw & ~SegmentBuilder.typoDisabledBit
            let slot = Location.slot(location)
            if let allowed = allowedSlots, !allowed.contains(slot) { return }
            for w in words.indices {
                guard let typos = words[w].typos(of: term) else { continue }
                if typos > 0 && raw & SegmentBuilder.typoDisabledBit != 0 { continue }
                locations[w].append(location)
                wordTypos[w] = min(wordTypos[w], typos)
                if words[w].exactTerm == term { wordExact[w] = true }
                let score = AttributeScore.make(rank: layout.rank(ofSlot: slot), position: Location.position(location),
                                                ordered: layout.isOrdered(slot: slot))
                match.attribute = min(match.attribute, score)
            }
        }
        for w in words.indices where !locations[w].isEmpty {
            match.matchedWords += 1
            match.typos += wordTypos[w]
            if wordExact[w] { match.exact += 1 }
        }
        match.proximity = proximity()
        return match
    }

    /// Sum over consecutive query words of their closest distance in one attribute, each capped.
    /// A pair met in reverse order counts one more than in order.
    private func proximity() -> Int {
        guard words.count > 1 else { return 0 }
        var total = 0
        for w in 1..<words.count {
            var best = Self.proximityCap
            for a in locations[w - 1] {
                for b in locations[w] where Location.slot(a) == Location.slot(b) && a != b {
                    let pa = Location.position(a), pb = Location.position(b)
                    best = min(best, pb > pa ? pb - pa : pa - pb + 1)
                }
                if best == 1 { break }
            }
            total += best
        }
        return total
    }
}
