import QuarryText
/// Which documents of one segment match every query word, and what do their postings already say
/// about typos, exactness and attribute?
///
/// Words are taken from the fewest postings to the most. The first word's postings are unioned into
/// dense per-document scratch (a stamp byte, typos, exact count, best attribute: no hashing). Each
/// further word then either scans its postings against the stamps, or, when the surviving documents
/// hold fewer tokens than the word has postings (`samsung t`: few Samsungs, countless t-words), reads
/// those documents' own token lists instead. Runs are visited in ascending typo order so the first
/// posting seen for a (word, document) pair carries its fewest typos.
///
/// Many matches stay dense: survivors are the documents whose stamp equals `final`, visited in
/// ordinal (= static) order by scanning, so ranking can stop early without listing them all.
struct Candidates {
    /// Per ordinal; meaningful where `stamp[ordinal] == final`.
    var stamp: [UInt8] = []
    var typos: [UInt8] = []
    var exact: [UInt8] = []
    /// Best `AttributeScore` over all words (flag bit cleared).
    var attribute: [UInt16] = []
    var final: UInt8 = 1
    /// Survivors in ordinal order when few (sparse); nil when dense.
    var list: [UInt32]? = []
    /// Live survivors.
    var count = 0
    /// No survivor has a lower attribute score: lets ranking stop as soon as the page holds enough
    /// documents this good (with a prefix like `musi`, nothing ever sits at position 0).
    var bestAttribute: UInt16 = 0
    /// Per ordinal proximity, when it was computed while the document's tokens were being read anyway.
    var proximity: [UInt16]?
    /// The word matched through `PrefixSets`: `typos` holds its (zero) typos, but `attribute` and
    /// `exact` leave it out; the ranker completes them from tokens (`DeferredWord`).
    var deferred: DeferredWord?

    struct DeferredWord {
        let word: Int
        /// No document scores better on this word (`PrefixSets.Entry.lowestScore`).
        let lowestScore: UInt16
        /// Per document, a tighter floor (`PrefixSets.Entry.floor`).
        let entry: PrefixSets.Entry
        /// Whether it has an exact term, so a document may gain one exact word.
        let mayBeExact: Bool
        /// Per-slot ranks for `ProximityScorer`'s match of this word.
        let blank: ProximityScorer.WordMatch
    }

    /// Ordinals of the live candidates, ascending; stops when `body` returns false.
    @inline(__always)
    func forEach(dead: Bitset, _ body: (Int) -> Bool) {
        if let list {
            for d in list where !body(Int(d)) { return }
            return
        }
        let hasDead = dead.count > 0
        stamp.withUnsafeBufferPointer { stamp in
            for d in 0..<stamp.count where stamp[d] == final && !(hasDead && dead.contains(d)) {
                if !body(d) { return }
            }
        }
    }

    /// `forEach`, also telling `ahead` the candidates `near` and `far` places on (list form only), so a
    /// caller can start loading what it will read for them while it works on this one.
    func forEach(dead: Bitset, ahead: (_ near: Int, _ far: Int) -> Void, _ body: (Int) -> Bool) {
        guard let list else { return forEach(dead: dead, body) }
        let near = 4, far = 12
        list.withUnsafeBufferPointer { list in
            for i in list.indices {
                if i + far < list.count { ahead(Int(list[i + near]), Int(list[i + far])) }
                if !body(Int(list[i])) { return }
            }
        }
    }

    /// Whether `d` is a live candidate.
    func contains(_ d: Int, dead: Bitset) -> Bool {
        if let list {
            var lo = 0, hi = list.count
            while lo < hi {
                let mid = (lo + hi) >> 1
                if Int(list[mid]) < d { lo = mid + 1 } else { hi = mid }
            }
            return lo < list.count && Int(list[lo]) == d
        }
        return d < stamp.count && stamp[d] == final && !(dead.count > 0 && dead.contains(d))
    }

    /// Turns the candidates into an explicit list holding only those for which `keep` is true.
    mutating func filter(dead: Bitset, _ keep: (Int) -> Bool) {
        var kept: [UInt32] = []
        forEach(dead: dead) { d in
            if keep(d) { kept.append(UInt32(d)) }
            return true
        }
        list = kept
        count = kept.count
    }

    /// `preferTokens` forces the strategy for later words (tests compare both); nil picks the cheaper.
    /// `proximity`: a scorer when ranking needs proximity; used when the last word reads token lists.
    /// `deferrable`: the caller ranks with `SegmentRanker`'s packed path, which completes a deferred word.
    static func collect(segment: Segment, dead: Bitset, words: [MatchedTerms], layout: SearchableLayout,
                        proximity scorer: ProximityScorer? = nil, preferTokens: Bool? = nil,
                        deferrable: Bool = false) -> Candidates {
        var result = Candidates()
        guard !words.isEmpty else { return result }
        let postings = segment.postings
        func size(_ m: MatchedTerms) -> Int {
            m.runs.reduce(0) { $0 + Int(postings.offsets[$1.terms.upperBound] - postings.offsets[$1.terms.lowerBound]) }
        }
        let order = words.indices.sorted { size(words[$0]) < size(words[$1]) }
        let firstSize = size(words[order[0]])
        if firstSize == 0 { return result }
        let n = segment.count
        let averageTokens = max(1, segment.positions.tokenCount / max(n, 1))
        var stamp = [UInt8](repeating: 0, count: n)
        var typo = [UInt8](unsafeUninitializedCapacity: n) { $1 = n }
        var exact = [UInt8](unsafeUninitializedCapacity: n) { $1 = n }
        var attribute = [UInt16](unsafeUninitializedCapacity: n) { $1 = n }
        var alive: [UInt32] = []
        // The first word's documents go to a raw buffer: appending to an array costs a uniqueness check each.
        let firstList = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: min(firstSize, n))
        defer { firstList.deallocate() }
        var firstCount = 0
        /// One word matching many documents: survivors are simply the documents stamped by its scan.
        var singleDense = false
        var final: UInt8 = 1
        var bestAttribute = UInt16.max
        var proximity: [UInt16]?
        var deferred: DeferredWord?
        stamp.withUnsafeMutableBufferPointer { stamp in
            typo.withUnsafeMutableBufferPointer { typo in
                exact.withUnsafeMutableBufferPointer { exact in
                    attribute.withUnsafeMutableBufferPointer { attribute in
                        var scratch = Scratch(stamp: stamp, typo: typo, exact: exact, attribute: attribute, firstList: firstList)
                        for (p, w) in order.enumerated() {
                            if p == 0 && order.count == 1 && deferrable && preferTokens == nil, let entry = prefixSet(segment, words[w]) {
                                // A lone prefix (`g`): its documents are the set's; attribute and exact wait for the ranker.
                                typo.initialize(repeating: 0)
                                exact.initialize(repeating: 0)
                                attribute.initialize(repeating: .max)
                                firstCount = scratch.stampAll(entry.levels, count: n)
                                singleDense = firstCount > n / 32
                                if !singleDense { for d in 0..<n where stamp[d] == 1 { alive.append(UInt32(d)) } }
                                deferred = DeferredWord(word: w, lowestScore: entry.lowestScore, entry: entry, mayBeExact: words[w].exactTerm != nil,
                                                        blank: ProximityScorer.WordMatch(layout: layout))
                                continue
                            }
                            if p == 0 && firstSize > n / 8 {
                                // Many postings: branch-free min-updates, then one pass to count (and list).
                                firstCount = scratch.scanDense(postings, words[w])
                                singleDense = order.count == 1 && firstCount > n / 32
                                if !singleDense {
                                    alive.reserveCapacity(firstCount)
                                    for d in 0..<n where stamp[d] == 1 { alive.append(UInt32(d)) }
                                }
                                continue
                            }
                            if p == 0 {
                                scratch.scan(postings, words[w], seen: 0, hit: 1, first: true)
                                firstCount = scratch.firstCount
                                singleDense = order.count == 1 && firstCount > n / 32
                                if !singleDense { alive = Array(firstList[0..<firstCount]) }
                                continue
                            }
                            if deferrable && deferred == nil && preferTokens == nil, let entry = prefixSet(segment, words[w]) {
                                alive.removeAll { !entry.contains(Int($0)) }
                                deferred = DeferredWord(word: w, lowestScore: entry.lowestScore, entry: entry, mayBeExact: words[w].exactTerm != nil,
                                                        blank: ProximityScorer.WordMatch(layout: layout))
                                continue
                            }
                            // Ranking would read the survivors' tokens for proximity anyway: favour tokens for the last word
                            // (unless a deferred word makes it read them again).
                            let last = p == order.count - 1 && deferred == nil ? scorer : nil
                            let tokenCost = alive.count * averageTokens / (last == nil ? 1 : 2)
                            if p > 0 && (preferTokens ?? (tokenCost < size(words[w]))) {
                                if last != nil { proximity = [UInt16](unsafeUninitializedCapacity: n) { $1 = n } }
                                scratch.forward(&alive, word: words[w], index: w, segment: segment, layout: layout,
                                                scorer: last, proximity: &proximity)
                                continue
                            }
                            let seen = UInt8(2 * p), hit = UInt8(2 * p + 1)
                            for d in alive { stamp[Int(d)] = seen }
                            scratch.scan(postings, words[w], seen: seen, hit: hit, first: false)
                            alive.removeAll { stamp[Int($0)] != hit }
                        }
                        // Survivors all get one final stamp, so the dense view can find them by scanning.
                        if !singleDense {
                            final = UInt8(2 * order.count + 1)
                            for d in alive { stamp[Int(d)] = final }
                        }
                        bestAttribute = min(scratch.bestAttribute, deferred?.lowestScore ?? .max)
                    }
                }
            }
        }
        result.final = final
        result.bestAttribute = bestAttribute
        result.proximity = proximity
        result.deferred = deferred
        if dead.count > n / 2 && (singleDense || alive.count > n / 32) {
            // Most documents are dead (a filter that leaves few: `dead` holds the documents it excludes): the
            // survivors are listed from the live ones, 64 at a time, where counting them checked every
            // document's stamp and bit (`ca` with a category filter on 1M records: 7.8 ms against 4.4 without).
            var list: [UInt32] = []
            stamp.withUnsafeBufferPointer { stamp in
                dead.forEachAbsent(below: n) { d in if stamp[d] == final { list.append(UInt32(d)) } }
            }
            result.count = list.count
            result.list = list
        } else if singleDense {
            result.list = nil
            result.count = firstCount
            if dead.count > 0 {
                for d in 0..<n where stamp[d] == final && dead.contains(d) { result.count -= 1 }
            }
        } else if alive.count > n / 32 {
            result.list = nil
            result.count = alive.count - (dead.count == 0 ? 0 : alive.count { dead.contains(Int($0)) })
        } else {
            alive.sort()
            if dead.count > 0 { alive.removeAll { dead.contains(Int($0)) } }
            result.count = alive.count
            result.list = alive
        }
        result.stamp = stamp
        result.typos = typo
        result.exact = exact
        result.attribute = attribute
        return result
    }

    /// The prefix bitset answering `word`, when it is one error-free run the segment keeps a set for.
    private static func prefixSet(_ segment: Segment, _ word: MatchedTerms) -> PrefixSets.Entry? {
        guard word.runs.count == 1, word.runs[0].typos == 0 else { return nil }
        return segment.prefixSets.documents(for: word.runs[0].terms)
    }

    /// The per-document scratch arrays while collecting.
    private struct Scratch {
        let stamp: UnsafeMutableBufferPointer<UInt8>
        let typo: UnsafeMutableBufferPointer<UInt8>
        let exact: UnsafeMutableBufferPointer<UInt8>
        let attribute: UnsafeMutableBufferPointer<UInt16>
        /// The first word's documents, in posting order.
        let firstList: UnsafeMutableBufferPointer<UInt32>
        var firstCount = 0
        /// The lowest attribute score any matching posting or token had.
        var bestAttribute = UInt16.max

        init(stamp: UnsafeMutableBufferPointer<UInt8>, typo: UnsafeMutableBufferPointer<UInt8>,
             exact: UnsafeMutableBufferPointer<UInt8>, attribute: UnsafeMutableBufferPointer<UInt16>,
             firstList: UnsafeMutableBufferPointer<UInt32>) {
            self.stamp = stamp
            self.typo = typo
            self.exact = exact
            self.attribute = attribute
            self.firstList = firstList
        }

        /// Postings strategy: documents stamped `seen` that the word hits become `hit` (`first`: the
        /// first word, whose documents are recorded in `firstList`).
        mutating func scan(_ postings: Postings, _ word: MatchedTerms, seen: UInt8, hit: UInt8, first: Bool) {
            var firstCount = self.firstCount
            let flag = AttributeScore.typoDisabledFlag
            var lowest = UInt16.max
            postings.withView { view in
                for run in word.runs.sorted(by: { $0.typos < $1.typos }) {
                    let t = UInt8(run.typos)
                    for term in run.terms {
                        view.forEach(term) { d, s in
                            if t > 0 && s & flag != 0 { return }
                            lowest = min(lowest, s & ~flag)
                            let st = stamp[d]
                            if st == seen {
                                stamp[d] = hit
                                if first {
                                    firstList[firstCount] = UInt32(d)
                                    firstCount += 1
                                    typo[d] = t
                                    exact[d] = 0
                                    attribute[d] = s & ~flag
                                } else {
                                    typo[d] &+= t
                                    attribute[d] = min(attribute[d], s & ~flag)
                                }
                            } else if st == hit {
                                attribute[d] = min(attribute[d], s & ~flag)
                            }
                        }
                    }
                }
                if let e = word.exactTerm {
                    view.forEach(e) { d, _ in if stamp[d] == hit { exact[d] += 1 } }
                }
            }
            bestAttribute = min(bestAttribute, lowest)
            self.firstCount = firstCount
        }

        /// Stamps 1 on every document of `set`; returns how many.
        func stampAll(_ set: DocumentLevels, count n: Int) -> Int {
            var stamped = 0
            set.forEachMember { d in
                if d < n { stamp[d] = 1; stamped += 1 }
            }
            return stamped
        }

        /// First word with many postings: every posting stamps its document 1 and lowers its typo and
        /// attribute, without the unpredictable first-or-repeat branch. Returns how many were stamped.
        mutating func scanDense(_ postings: Postings, _ word: MatchedTerms) -> Int {
            typo.initialize(repeating: .max)
            attribute.initialize(repeating: .max)
            exact.initialize(repeating: 0)
            let flag = AttributeScore.typoDisabledFlag
            var lowest = UInt16.max
            postings.withView { view in
                for run in word.runs {
                    let t = UInt8(run.typos)
                    for term in run.terms {
                        view.forEach(term) { d, s in
                            if t > 0 && s & flag != 0 { return }
                            stamp[d] = 1
                            typo[d] = min(typo[d], t)
                            attribute[d] = min(attribute[d], s & ~flag)
                            lowest = min(lowest, s & ~flag)
                        }
                    }
                }
                // The exact term has no typo, so its documents are all stamped already.
                if let e = word.exactTerm {
                    view.forEach(e) { d, _ in exact[d] = 1 }
                }
            }
            bestAttribute = min(bestAttribute, lowest)
            var count = 0
            for d in 0..<stamp.count { count &+= Int(stamp[d]) }
            return count
        }

        /// Token strategy: reads each surviving document's tokens; keeps those the word matches.
        /// With a `scorer`, also computes each survivor's proximity while its tokens are in cache.
        /// With a scorer, one pass per document does both (the word's match and the proximity).
        mutating func forward(_ alive: inout [UInt32], word: MatchedTerms, index: Int, segment: Segment,
                              layout: SearchableLayout, scorer: ProximityScorer?, proximity: inout [UInt16]?) {
            var lowest = UInt16.max
            let positions = segment.positions
            let single = word.runs.count == 1 ? word.runs[0] : nil
            let disabled = SegmentBuilder.typoDisabledBit
            let blank = ProximityScorer.WordMatch(layout: layout)
            let ranks = blank.ranks, ordered = blank.ordered
            var kept = 0
            if let scorer {
                for d in alive {
                    var match: ProximityScorer.WordMatch? = blank
                    let distance = scorer.proximity(of: Int(d), target: index, match: &match)
                    guard let m = match, m.typos != Int.max else { continue }
                    lowest = min(lowest, m.score)
                    typo[Int(d)] &+= UInt8(m.typos)
                    attribute[Int(d)] = min(attribute[Int(d)], m.score)
                    if m.exact { exact[Int(d)] += 1 }
                    proximity?[Int(d)] = UInt16(distance)
                    alive[kept] = d
                    kept += 1
                }
                alive.removeLast(alive.count - kept)
                bestAttribute = min(bestAttribute, lowest)
                return
            }
            positions.withTokens { tokens in
                for d in alive {
                    var bestTypo = Int.max, bestScore = UInt16.max, isExact = false
                    tokens.forEach(Int(d)) { term, location in
                        let typos: Int
                        if let single {
                            guard single.terms.contains(term) else { return }
                            typos = single.typos
                        } else {
                            guard let found = word.typos(of: term) else { return }
                            typos = found
                        }
                        if typos > 0 && location & disabled != 0 { return }
                        bestTypo = min(bestTypo, typos)
                        let slot = Location.slot(location)
                        let score = ranks[slot] << 10 | (ordered[slot] ? UInt16(Location.position(location)) : 0)
                        bestScore = min(bestScore, score)
                        if term == word.exactTerm { isExact = true }
                    }
                    guard bestTypo != Int.max else { continue }
                    lowest = min(lowest, bestScore)
                    typo[Int(d)] &+= UInt8(bestTypo)
                    attribute[Int(d)] = min(attribute[Int(d)], bestScore)
                    if isExact { exact[Int(d)] += 1 }
                    alive[kept] = d
                    kept += 1
                }
            }
            alive.removeLast(alive.count - kept)
            bestAttribute = min(bestAttribute, lowest)
        }
    }
}
