/// Which candidates of one segment are the best `k`, in order?
///
/// Candidates arrive in ordinal order, and the ordinal (static order) is the last ranking field, so a
/// candidate can only displace a kept one with a strictly better textual key, and once even the best
/// possible textual key (fewest typos, best attribute present, every exact word) cannot, no later
/// candidate can: the loop stops. With the default ranking shape the textual key is one packed word
/// and the per-candidate cost is a few loads and one comparison. Proximity needs positions, so it is
/// computed only for candidates whose key with the closest possible proximity could still enter.
struct SegmentRanker {
    let segment: Segment
    let index: Int
    let dead: Bitset
    let words: [MatchedTerms]
    let layout: RankingLayout
    private let proximity: ProximityScorer

    /// `proximity`, when given, is the scorer candidate collection already made for these words.
    init(segment: Segment, index: Int, dead: Bitset, words: [MatchedTerms], layout: RankingLayout, proximity: ProximityScorer? = nil) {
        self.segment = segment
        self.index = index
        self.dead = dead
        self.words = words
        self.layout = layout
        self.proximity = proximity ?? ProximityScorer(segment: segment, words: words)
    }

    private var lazyProximity: Bool { layout.hasProximity && words.count > 1 }

    /// Proximities computed before `ProximityBound` is consulted: most queries stop earlier, and its rows
    /// cost a pass over the word's documents the first time (tests lower it).
    var proximityBoundAfter = 1_024

    private var proximityPlacement: RankingLayout.Placement? { layout.placements.first { $0.field == .proximity } }

    /// One per word pair: each pair is at least one position apart.
    private var proximityFloor: Int { lazyProximity ? words.count - 1 : 0 }

    /// The best values any candidate could have, for the stopping test.
    private func bound(_ candidates: Candidates, proximity floor: Int) -> RankingLayout.Values {
        var bound = RankingLayout.Values()
        bound.exact = words.count { $0.exactTerm != nil }
        bound.proximity = floor
        bound.attribute = candidates.bestAttribute
        return bound
    }

    mutating func best(_ wanted: Int, of candidates: Candidates) -> [RankedDocument] {
        var top = TopK<Int>(capacity: wanted)
        // A deferred word (see `Candidates.DeferredWord`) is only completed by the packed path; callers
        // ask for deferral only when `layout.textual` exists.
        if let packing = layout.textual {
            fast(&top, candidates, packing)
        } else {
            general(&top, candidates, proximity: proximityFloor)
        }
        return top.sorted().map { RankedDocument(segment: index, ordinal: $0.payload, key: $0.key) }
    }

    private mutating func fast(_ top: inout TopK<Int>, _ candidates: Candidates, _ packing: RankingLayout.TextualPacking) {
        var b = bound(candidates, proximity: proximityFloor)
        var boundKey = packing.pack(typos: 0, proximity: UInt64(b.proximity), attribute: UInt64(b.attribute),
                                    exact: UInt64(min(b.exact, 63)))
        var minimumProximity = UInt64(proximityFloor)
        // Once many proximities were read without stopping, ask `ProximityBound` whether the page's
        // proximity is already the best possible (its rows may cost up to one pass over the candidates).
        var proximities = 0, boundTried = !lazyProximity
        let typos = candidates.typos, exact = candidates.exact, attribute = candidates.attribute
        let stored = candidates.proximity
        let sortRanks = segment.sortRanks
        // Textual key of the worst kept candidate once the heap is full.
        var worst = UInt64.max
        let deferred = candidates.deferred
        // Until its tokens are read, a document may still score the deferred word's best and gain its exact
        // term, but only a document whose postings hold that term can gain it ('w' typed: the few with the
        // word "w", not the 750,000 with a w-word, whose tokens then need no reading once the page is good).
        let exactTerm = deferred.flatMap { $0.mayBeExact ? words[$0.word].exactTerm : nil }
        let postings = segment.postings
        // A lone prefix ('w'): rank the documents holding its exact term first. The others then cannot
        // gain it, so the scan stops as soon as the page holds documents with its best attribute, instead
        // of reading past all 755,000 w-documents of 1M in case one holds the word "w". (With one word,
        // an exact document's textual key always differs from the others', so visiting it early
        // breaks no tie on the ordinal.) Postings are in ordinal order, which the scan below relies on.
        let exactFirst = words.count == 1 && !lazyProximity && exactTerm != nil
        // Otherwise only a document whose postings hold the exact term can gain it. Knowing which costs
        // decoding those postings: not worth it for a few candidates against a common word ('ave house a':
        // 103 candidates, and the word "a" in most documents), where any candidate may gain it.
        let exactDocuments = exactFirst ? nil : exactTerm.flatMap { term -> Bitset? in
            guard postings.count(of: term) <= 4 * candidates.count else { return nil }
            var documents = Bitset(capacity: segment.count)
            postings.forEach(term) { d, _ in documents.insert(d) }
            return documents
        }
        let mayGainExact: UInt64 = exactTerm == nil ? 0 : 1
        var revisit = Set<Int>()
        if exactFirst, let deferred, let exactTerm {
            var early = PostingCursor(postings, term: exactTerm)
            while early.advance() {
                if top.isFull && boundKey >= worst { break }
                let ordinal = early.document
                guard candidates.contains(ordinal, dead: dead) else { continue }
                let t = UInt64(min(typos[ordinal], 63))
                var a = UInt64(attribute[ordinal]), e = UInt64(exact[ordinal])
                let floor = packing.pack(typos: t, proximity: minimumProximity, attribute: min(a, UInt64(deferred.entry.floor(ordinal))),
                                         exact: min(e + 1, 63))
                if floor >= worst { continue }
                var match: ProximityScorer.WordMatch? = deferred.blank
                _ = proximity.proximity(of: ordinal, target: deferred.word, match: &match)
                guard let match, match.exact else {
                    revisit.insert(ordinal)  // its exact word lies outside the attributes searched: the scan ranks it
                    continue
                }
                a = min(a, UInt64(match.score))
                e = min(e + 1, 63)
                if packing.pack(typos: t, proximity: minimumProximity, attribute: a, exact: e) >= worst { continue }
                var values = RankingLayout.Values()
                values.typos = Int(t)
                values.exact = Int(e)
                values.attribute = UInt16(a)
                values.ordinal = ordinal
                top.insert(layout.key(values, sortRanks: sortRanks), ordinal)
                if top.isFull { worst = packedTextual(of: top.threshold, packing) }
            }
            b.exact -= 1
            boundKey = packing.pack(typos: 0, proximity: UInt64(b.proximity), attribute: UInt64(b.attribute),
                                    exact: UInt64(min(b.exact, 63)))
            if top.isFull && boundKey >= worst { return }
        }
        // The scan skips what the early pass visited, found by walking the exact postings beside it.
        var nextExact = exactFirst ? exactTerm.map { PostingCursor(postings, term: $0) } : nil
        var exactLeft = nextExact?.advance() ?? false
        let positions = segment.positions, readsTokens = lazyProximity || deferred != nil
        candidates.forEach(dead: dead, ahead: { near, far in
            if readsTokens { positions.prefetch(near: near, far: far) }
        }) { ordinal in
            if exactFirst {
                while exactLeft, let d = nextExact?.document, d < ordinal { exactLeft = nextExact?.advance() ?? false }
                if exactLeft && nextExact?.document == ordinal && !revisit.contains(ordinal) { return true }
            }
            // Only a page held back by proximity (its worst above the floor) can gain from a higher floor.
            if !boundTried && top.isFull && proximities >= proximityBoundAfter,
               let placement = proximityPlacement, HitOrder.field(top.threshold, placement) > UInt64(proximityFloor) {
                boundTried = true
                let raised = ProximityBound.minimum(segment: segment, words: words, budget: 2 * candidates.count)
                if raised > proximityFloor {
                    b.proximity = raised
                    minimumProximity = UInt64(raised)
                    boundKey = packing.pack(typos: 0, proximity: UInt64(raised), attribute: UInt64(b.attribute), exact: UInt64(min(b.exact, 63)))
                    if boundKey >= worst { return false }
                }
            }
            let t = UInt64(min(typos[ordinal], 63))
            var a = UInt64(attribute[ordinal]), e = UInt64(exact[ordinal])
            let scoreFloor = deferred.map { UInt64($0.entry.floor(ordinal)) } ?? .max
            let exactGain = exactDocuments.map { $0.contains(ordinal) ? 1 : 0 } ?? mayGainExact
            var key = packing.pack(typos: t, proximity: minimumProximity, attribute: min(a, scoreFloor), exact: min(e + exactGain, 63))
            if key >= worst { return true }
            var values = RankingLayout.Values()
            if let deferred {
                var match: ProximityScorer.WordMatch? = deferred.blank
                let distance = proximity.proximity(of: ordinal, target: deferred.word, match: &match)
                proximities += 1
                if let match {
                    a = min(a, UInt64(match.score))
                    if match.exact { e += 1 }
                }
                e = min(e, 63)
                values.proximity = lazyProximity ? distance : 0
                key = packing.pack(typos: t, proximity: UInt64(min(values.proximity, 511)), attribute: a, exact: e)
                if key >= worst { return true }
            } else if lazyProximity {
                values.proximity = stored.map { Int($0[ordinal]) } ?? proximity.proximity(of: ordinal)
                proximities += 1
                key = packing.pack(typos: t, proximity: UInt64(min(values.proximity, 511)), attribute: a, exact: e)
                if key >= worst { return true }
            }
            values.typos = Int(t)
            values.exact = Int(min(e, 63))
            values.attribute = UInt16(a)
            values.ordinal = ordinal
            top.insert(layout.key(values, sortRanks: sortRanks), ordinal)
            if top.isFull {
                // The heap's root is its worst entry; recover its textual key.
                worst = packedTextual(of: top.threshold, packing)
                if boundKey >= worst { return false }
            }
            return true
        }
    }

    /// The textual word of a full key, rebuilt from its fields.
    private func packedTextual(of key: RankingKey, _ packing: RankingLayout.TextualPacking) -> UInt64 {
        var t: UInt64 = 0, p: UInt64 = 0, a: UInt64 = 0, e: UInt64 = 0
        for placement in layout.placements {
            let value = HitOrder.field(key, placement)
            switch placement.field {
            case .typo: t = value
            case .proximity: p = value
            case .attribute: a = value
            case .exact: e = 63 - value
            case .custom, .sort: break
            }
        }
        return packing.pack(typos: t, proximity: p, attribute: a, exact: e)
    }

    private mutating func general(_ top: inout TopK<Int>, _ candidates: Candidates, proximity floor: Int) {
        var bound = bound(candidates, proximity: floor)
        let sortRanks = segment.sortRanks
        let typos = candidates.typos, exact = candidates.exact, attribute = candidates.attribute
        let stored = candidates.proximity
        candidates.forEach(dead: dead) { ordinal in
            if top.isFull {
                bound.ordinal = ordinal
                if !(layout.key(bound, sortRanks: []) < top.threshold) { return false }
            }
            var values = RankingLayout.Values()
            values.typos = Int(typos[ordinal])
            values.exact = Int(exact[ordinal])
            values.attribute = attribute[ordinal]
            values.ordinal = ordinal
            if lazyProximity {
                // Each pair of words is at least one position apart, or as far as `ProximityBound` proved.
                values.proximity = floor
                if top.isFull && !(layout.key(values, sortRanks: sortRanks) < top.threshold) { return true }
                values.proximity = stored.map { Int($0[ordinal]) } ?? proximity.proximity(of: ordinal)
            }
            top.insert(layout.key(values, sortRanks: sortRanks), ordinal)
            return true
        }
    }
}
