import QuarryJSON
import QuarrySearchContract
import QuarryText

/// Given a query, which documents are the hits of the requested page, in which order?
///
/// Per segment: match each query word against the dictionary (`TypoMatcher`), intersect postings into
/// candidates (`Candidates`, which also yields typo, exact and attribute per document), then keep the
/// best `(page + 1) × hitsPerPage` with a bounded heap over packed `RankingKey`s. Proximity needs
/// positions, so it is computed only for candidates whose key with the best possible proximity could
/// still enter the heap. Segments' winners are merged with `HitOrder`; only the page's records are read.
/// Filters only widen the dead set (`FilterPlan`); facets are counted over the same candidates
/// (`FacetCounter`); geo, optional filters, distinct and relevant sort rank in `RefinedRanking`.
extension SearchIndex {
    public func search(_ parameters: SearchParameters, records: RecordSource) throws(BackendError) -> SearchResponse {
        let started = ContinuousClock.now
        let words = QueryWords.parse(parameters)
        let hitsPerPage = parameters.hitsPerPage
        // Saturating: a huge `page` must mean "past the end", not an overflow trap.
        let (start, startOverflow) = parameters.page.multipliedReportingOverflow(by: hitsPerPage)
        let pageStart = startOverflow ? Int.max : start
        let wanted = min(pageStart > Int.max - hitsPerPage ? Int.max : pageStart + hitsPerPage, parameters.paginationLimitedTo)
        let ranking = RankingLayout(ranking: settings.ranking)
        // Filters narrow what `dead` excludes: the universe for facet counts, the hits for ranking.
        let plan = try FilterPlan(index: self, refinements: parameters.refinements)
        var universe: [Candidates]? = nil, hitCandidates: [Candidates]? = nil
        let refined = RefinedRanking(index: self, parameters: parameters, plan: plan)

        var matchedTerms: [[MatchedTerms]] = []
        // Each segment's best documents, best first.
        var runs: [[RankedDocument]] = []
        var nbHits: Int
        let holdsNoWord = words.isEmpty && QueryWords.holdsNoWord(parameters.query)
        if holdsNoWord {
            // Text that is not indexed (`🍕`) matches nothing, rather than everything as a blank query does.
            nbHits = 0
            universe = segments.map { _ in Candidates() }
            hitCandidates = universe
        } else if words.isEmpty {
            nbHits = plan.hitCount(self)
            runs = refined == nil ? staticTop(wanted, layout: ranking, dead: plan.hitDead) : []
        } else {
            var candidates: [Candidates] = [], scorers: [ProximityScorer?] = []
            let collectsProximity = ranking.hasProximity && words.count > 1, ranks = wanted > 0 && refined == nil
            // Only the packed ranker completes a word matched by prefix bitset (see `Candidates.DeferredWord`).
            let deferrable = refined == nil && parameters.restrictSearchableAttributes == nil && ranking.textual != nil
            for (s, segment) in segments.enumerated() {
                let matcher = TypoMatcher(dictionary: segment.dictionary)
                let terms = words.map { matcher.match($0) }
                matchedTerms.append(terms)
                // Made once per segment: collection (for proximity) and ranking both read with it.
                let scorer = collectsProximity || ranks ? ProximityScorer(segment: segment, words: terms) : nil
                scorers.append(scorer)
                var found = Candidates.collect(segment: segment, dead: plan.universeDead[s], words: terms, layout: layout,
                                               proximity: collectsProximity ? scorer : nil, deferrable: deferrable)
                if let restricted = parameters.restrictSearchableAttributes {
                    restrict(&found, segment: s, words: terms, to: restricted, dead: plan.universeDead[s])
                }
                candidates.append(found)
            }
            applyTypoMode(parameters.typoTolerance, to: &candidates, dead: plan.universeDead)
            universe = candidates
            candidates = plan.narrow(candidates, index: self)
            hitCandidates = candidates
            nbHits = candidates.reduce(0) { $0 + $1.count }
            for s in segments.indices {
                guard wanted > 0, refined == nil else { break }
                var ranker = SegmentRanker(segment: segments[s], index: s, dead: plan.hitDead[s], words: matchedTerms[s], layout: ranking,
                                           proximity: scorers[s])
                runs.append(ranker.best(wanted, of: candidates[s]))
            }
        }
        let ranked: [RankedDocument]
        var sorted: RefinedRanking.Result? = nil
        if let refined {
            let result = refined.rank(candidates: hitCandidates, words: matchedTerms, wanted: wanted, nbHits: nbHits)
            (ranked, nbHits, sorted) = (result.ranked, result.nbHits, result)
        } else if runs.count > 1 {
            ranked = HitOrder(layout: ranking, order: self.order, segments: segments).merging(runs, first: wanted)
        } else {
            ranked = runs.first ?? []
        }
        var hits: [SearchHit] = []
        if pageStart < min(wanted, ranked.count) {
            var builder = HitBuilder(index: self, parameters: parameters, words: words)
            for document in ranked[pageStart..<min(wanted, ranked.count)] {
                let terms = matchedTerms.isEmpty ? [] : matchedTerms[document.segment]
                if let hit = try builder.hit(document, terms: terms, records: records) { hits.append(hit) }
            }
        }
        if let sorted { RefinedRanking.annotate(&hits, sorted, from: pageStart) }
        let paged = sorted?.nbSortedHits ?? nbHits
        let pages = hitsPerPage == 0 ? 0 : min((paged + hitsPerPage - 1) / hitsPerPage,
                                               (parameters.paginationLimitedTo + hitsPerPage - 1) / hitsPerPage)
        let elapsed = ContinuousClock.now - started
        let milliseconds = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        var response = SearchResponse(hits: hits, nbHits: nbHits, page: parameters.page, nbPages: pages, hitsPerPage: hitsPerPage,
                                      processingTimeMS: milliseconds, query: parameters.query)
        if !plan.counted.isEmpty {
            FacetResponse.fill(&response, plan, FacetCounter.count(index: self, plan: plan, universe: universe))
        }
        response.facetsNotCounted = parameters.refinements.facetsNotCounted
        response.queryHasNoWords = holdsNoWord
        if let refined, let strictness = refined.strictness, let sortedHits = sorted?.nbSortedHits {
            response.appliedRelevancyStrictness = strictness
            response.nbSortedHits = sortedHits
        }
        return response
    }

    /// Empty query: every live document matches; the first ordinals of each segment are its best.
    private func staticTop(_ wanted: Int, layout: RankingLayout, dead: [Bitset]) -> [[RankedDocument]] {
        var runs: [[RankedDocument]] = []
        for (s, segment) in segments.enumerated() {
            var run: [RankedDocument] = []
            var taken = 0
            var ordinal = 0
            while taken < wanted && ordinal < segment.count {
                if !dead[s].contains(ordinal) {
                    var values = RankingLayout.Values()
                    values.ordinal = ordinal
                    values.exact = 63
                    run.append(RankedDocument(segment: s, ordinal: ordinal, key: layout.key(values, sortRanks: segment.sortRanks)))
                    taken += 1
                }
                ordinal += 1
            }
            run.sort { $0.key < $1.key }
            runs.append(run)
        }
        return runs
    }

    /// `restrictSearchableAttributes`: re-reads each candidate's tokens keeping only the allowed slots.
    func restrict(_ candidates: inout Candidates, segment s: Int, words: [MatchedTerms], to names: [String], dead: Bitset) {
        guard !layout.isDynamic else { return }
        let wanted = Set(names)
        let allowed = Set(layout.names.indices.filter { wanted.contains(layout.names[$0]) })
        var matcher = DocumentMatcher(segment: segments[s], words: words, layout: layout, allowedSlots: allowed)
        var updated = candidates
        candidates.filter(dead: dead) { ordinal in
            let match = matcher.evaluate(ordinal)
            guard match.matchedWords == words.count else { return false }
            updated.typos[ordinal] = UInt8(min(match.typos, 255))
            updated.exact[ordinal] = UInt8(min(match.exact, 255))
            updated.attribute[ordinal] = match.attribute
            return true
        }
        updated.list = candidates.list
        updated.count = candidates.count
        candidates = updated
    }

    /// `typoTolerance: min` keeps only the fewest-typo candidates; `strict` also those with one more.
    func applyTypoMode(_ mode: TypoTolerance, to candidates: inout [Candidates], dead: [Bitset]) {
        let slack: Int
        switch mode {
        case .min: slack = 0
        case .strict: slack = 1
        case .enabled, .disabled: return
        }
        var fewest = Int.max
        for s in candidates.indices {
            let typos = candidates[s].typos
            candidates[s].forEach(dead: dead[s]) { fewest = min(fewest, Int(typos[$0])); return true }
        }
        for s in candidates.indices {
            let typos = candidates[s].typos
            candidates[s].filter(dead: dead[s]) { Int(typos[$0]) <= fewest + slack }
        }
    }
}
