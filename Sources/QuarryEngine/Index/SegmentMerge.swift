/// How do segments become one without their records?
///
/// A part's postings already hold each document's best score for a term, and its token positions each
/// token's location; what a merge changes is only the ordinals (the parts' live documents in static order)
/// and the term ids (the union of the dictionaries). So each merged term's postings are the parts' postings
/// of that term renumbered, their ascending runs merged, and each document's tokens are its part's tokens
/// recoded. Laying the segment out again from tokens, as a build from records does, held every token of the
/// merge at once (6 bytes each: a merge of 512,000 documents of the benchmark catalogue rose about 400 MiB
/// above the index, Benchmarks/RESULTS.md); this holds the output and one term's postings. Both encodings
/// choose their codes as a build does (by frequency, ties by id), so the result is the segment a build
/// from records would lay out, but for the terms only deleted documents held, which keep empty postings.
struct SegmentMerge: Sendable {
    let parts: [Segment]
    let termMaps: [[UInt32]]
    let termCount: Int
    /// The merged ordinal of each document of the parts laid end to end (`.max` for a deleted one): part `p`'s
    /// document `d` is entry `documentBase[p] + d`.
    let renumbered: [UInt32]
    let documentBase: [Int]
    /// Each merged document's part and ordinal there, by merged ordinal.
    let sources: [Origin]

    private init(parts: [Segment], termMaps: [[UInt32]], termCount: Int, ordering: consuming Ordering) {
        self.parts = parts
        self.termMaps = termMaps
        self.termCount = termCount
        renumbered = ordering.renumbered
        documentBase = ordering.documentBase
        sources = ordering.sources
    }

    /// A part's document.
    struct Origin: Sendable {
        let part: UInt32
        let ordinal: UInt32
    }

    /// The documents of `parts` not marked in `dead`, as one segment; its postings and token positions
    /// written to files in `spillDirectory` when given (`SpillFile`), else on the heap.
    static func merge(_ parts: [Segment], dead: [Bitset], order: StaticOrder, facets layout: FacetLayout,
                      spillDirectory: String? = nil, sideBySideUpTo: Int = Self.sideBySideUpTo) -> Segment {
        // A small merge runs the steps that do not depend on each other side by side: the dictionary beside the
        // documents' order and then the facets. The first tier's merge runs inside a write, before its reply,
        // and one step after the other left a core idle for most of it (Benchmarks/RESULTS.md, "A write's own
        // merges, side by side"). A larger merge, off the write path, keeps them apart and holds less at once:
        // side by side too, they raised the loading peaks at 100k by 4–8 MiB, past their bound.
        let documents = parts.reduce(0) { $0 + $1.count }
        let sideBySide = documents <= sideBySideUpTo
        let ((dictionary, termMaps), (docIDs, values, ordering, early)) = Parallel.both(
            documents: sideBySide ? documents : 0,  // 0: one after the other, on this thread
            { TermDictionary.merging(parts.map(\.dictionary)) },
            {
                let (docIDs, values, ordering) = Self.ordered(parts, dead: dead, order: order)
                let facets = sideBySide ? Self.facets(parts, dead: dead, sources: ordering.sources, layout: layout) : nil
                return (docIDs, values, ordering, facets)
            })
        let merge = SegmentMerge(parts: parts, termMaps: termMaps, termCount: dictionary.count,
                                 ordering: consume ordering)
        // Consumed: its renumbering and sources (12 bytes a document) go before the segment is laid out.
        let (postings, positions, late) = (consume merge).passes(dead: dead, facets: early == nil ? layout : nil,
                                                                 spillDirectory: spillDirectory)
        guard let facets = early ?? late else { preconditionFailure("a merge's facets are merged before or after it") }
        // Nothing reads the parts any more: what was read of them in place goes before the prefix sets are built.
        for part in parts { part.releaseResidentPages() }
        return SegmentBuilder.segment(ordered: docIDs, values: values, order: order, dictionary: dictionary,
                                      postings: postings, positions: positions, facets: facets)
    }

    /// The merged postings and token positions, read from the parts in turn, then the facets if `layout` is given.
    private func passes(dead: [Bitset], facets layout: FacetLayout?, spillDirectory: String?)
        -> (Postings, DocumentPositions, SegmentFacets?) {
        // The ordering read the parts' ids and sort values in place; the passes below let go of what they
        // read as they go (`WalkWindow`, and column by column for the facets).
        for part in parts { part.releaseResidentPages() }
        // A file that failed (a full disk) leaves its array to the heap.
        let (postings, positions) = Parallel.both(documents: sources.count, {
            self.postings(spill: spillDirectory.flatMap(SpillFile.init)) ?? self.postings(spill: nil)
        }, {
            self.positions(documents: sources.count, spill: spillDirectory.flatMap(SpillFile.init))
                ?? self.positions(documents: sources.count, spill: nil)
        })
        guard let postings, let positions else { preconditionFailure("a merge on the heap cannot fail") }
        return (postings, positions, layout.map { Self.facets(parts, dead: dead, sources: sources, layout: $0) })
    }

    /// The parts' facets of the documents `sources` lists, in merged order.
    private static func facets(_ parts: [Segment], dead: [Bitset], sources: [Origin], layout: FacetLayout) -> SegmentFacets {
        SegmentFacets.merging(parts.map(\.facets), counts: parts.map(\.count), dead: dead, sources: sources, layout: layout)
    }

    /// Merges of up to this many documents, as those inside writes are, run side by side.
    static let sideBySideUpTo = SearchIndex.MergePolicy.standard.eagerLimit

    /// How the parts' live documents are numbered in the merged segment.
    private struct Ordering: Sendable {
        let renumbered: [UInt32]
        let documentBase: [Int]
        let sources: [Origin]
    }

    /// The live documents of `parts` in static order (their ids and sort values), and how the parts'
    /// ordinals map to it. What only the ordering needs (each document's origin, the permutation, the ids
    /// and values in the parts' order: 28 bytes a document) is gone when it returns.
    private static func ordered(_ parts: [Segment], dead: [Bitset], order: StaticOrder) -> ([DocID], [Double], Ordering) {
        var docIDs: [DocID] = [], values: [Double] = [], origins: [Origin] = []
        for (p, (segment, dead)) in zip(parts, dead).enumerated() {
            for ordinal in 0..<segment.count where !dead.contains(ordinal) {
                docIDs.append(segment.docIDs[ordinal])
                values.append(contentsOf: segment.values(of: ordinal))
                origins.append(Origin(part: UInt32(p), ordinal: UInt32(ordinal)))
            }
        }
        let permutation = SegmentBuilder.staticPermutation(ids: docIDs, values: values, order: order)
        let documentBase = parts.reduce(into: [0]) { $0.append($0[$0.count - 1] + $1.count) }
        var renumbered = [UInt32](repeating: .max, count: documentBase[parts.count])
        for (new, old) in permutation.enumerated() {
            renumbered[documentBase[Int(origins[old].part)] + Int(origins[old].ordinal)] = UInt32(new)
        }
        let sources = permutation.map { origins[$0] }
        origins = []
        let (orderedIDs, orderedValues) = SegmentBuilder.reordered(docIDs: docIDs, values: values, by: permutation,
                                                                    keyCount: order.keys.count)
        return (orderedIDs, orderedValues, Ordering(renumbered: renumbered, documentBase: documentBase, sources: sources))
    }

    /// Each merged term's postings: its parts' postings renumbered, deleted documents left out, their runs
    /// merged into one ascending list. Nil when `spill` failed.
    func postings(spill: SpillFile?) -> Postings? {
        // Parts read in place from their files are read whole twice; each pass holds a few MiB of a part at a
        // time (`WalkWindow`), so that a merge never holds its input (RSS) beside its output.
        let codes = Postings.ScoreCodes(frequency: scoreFrequency())
        var windows = parts.map { WalkWindow($0.postings.bytes, among: parts.count) }
        let documents = renumbered.count
        var offsets = [UInt32](repeating: 0, count: termCount + 1), starts = offsets
        var lowestScores = [UInt16](repeating: .max, count: termCount)
        let bytes = MergedBytes(capacity: parts.reduce(PrefixVarint.padding) { $0 + $1.postings.bytes.count }, spill: spill)
        // The parts' arrays laid end to end, so the loop over terms reads them without retaining any.
        let flat = FlatParts(self)
        var cursor = Array(flat.termBase.dropLast())
        // A term has at most one posting a document. Entries are an ordinal above its score: ordinals are
        // distinct within a term, so they order the entries.
        let run = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: max(documents, 1))
        let spare = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: max(documents, 1))
        defer {
            run.deallocate()
            spare.deallocate()
        }
        var ends: [Int] = []
        withExtendedLifetime(parts) {
            flat.withBuffers(renumbered) { termMap, termOffsets, termStarts, scoreValues, numbers in
                for term in 0..<termCount {
                    if term & 255 == 0 {
                        for p in 0..<parts.count { windows[p].reach(Int(termStarts[cursor[p] + p])) }
                    }
                    var count = 0
                    ends.removeAll(keepingCapacity: true)
                    for p in 0..<parts.count where cursor[p] < flat.termBase[p + 1] && Int(termMap[cursor[p]]) == term {
                        let at = cursor[p], raw = flat.bytes[p], scores = flat.scoreBase[p], first = documentBase[p]
                        var position = Int(termStarts[at + p]), doc = 0
                        for _ in 0..<Int(termOffsets[at + 1 + p] - termOffsets[at + p]) {
                            let (gap, gapLength) = PrefixVarint.read(raw, at: position)
                            let (code, codeLength) = PrefixVarint.read(raw, at: position + gapLength)
                            position += gapLength + codeLength
                            doc += Int(gap)
                            let new = numbers[first + doc]
                            if new != .max {
                                run[count] = UInt64(new) << 16 | UInt64(scoreValues[scores + Int(code)])
                                count += 1
                            }
                        }
                        if count > (ends.last ?? 0) { ends.append(count) }
                        cursor[p] += 1
                    }
                    let sorted = ends.count > 1 ? Self.mergeRuns(run, spare, count: count, ends: &ends) : run
                    var lowest = UInt16.max
                    // At most 4 bytes of gap and 3 of score code an entry.
                    bytes.append(atMost: 7 * count) { encoded in
                        var previous: UInt32 = 0, length = 0
                        for entry in sorted[0..<count] {
                            let doc = UInt32(truncatingIfNeeded: entry >> 16), score = UInt16(truncatingIfNeeded: entry)
                            length = PrefixVarint.write(doc - previous, to: encoded, at: length)
                            length = PrefixVarint.write(codes.code[Int(score)], to: encoded, at: length)
                            previous = doc
                            lowest = min(lowest, score & ~AttributeScore.typoDisabledFlag)
                        }
                        return length
                    }
                    lowestScores[term] = lowest
                    offsets[term + 1] = offsets[term] + UInt32(count)
                    starts[term + 1] = UInt32(bytes.count)
                }
            }
        }
        for window in windows { window.finish() }
        bytes.appendZeros(PrefixVarint.padding)
        guard let stored = bytes.finish() else { return nil }
        return Postings(offsets: StoredArray(offsets), starts: StoredArray(starts), bytes: stored, scoreValues: codes.values,
                        lowestScores: StoredArray(lowestScores))
    }

    /// How many live postings carry each score: what the score codes are chosen by.
    private func scoreFrequency() -> [Int] {
        // A part's score values are the scores its postings use.
        let highest = parts.lazy.compactMap { $0.postings.scoreValues.max() }.max() ?? 0
        var frequency = [Int](repeating: 0, count: Int(highest) + 1)
        for (p, segment) in parts.enumerated() {
            let first = documentBase[p], starts = segment.postings.starts
            var window = WalkWindow(segment.postings.bytes)
            segment.postings.withView { view in
                for term in 0..<segment.postings.termCount {
                    window.reach(Int(starts[term]))
                    view.forEach(term) { doc, score in
                        if renumbered[first + doc] != .max { frequency[Int(score)] += 1 }
                    }
                }
            }
            window.finish()
        }
        return frequency
    }

    /// Calls `body(part, tokens, ordinal, merged ordinal)` for each live document, part by part, each part's
    /// tokens read in order.
    @inline(__always)
    private func forEachLiveDocument(_ body: (Int, TokenView, Int, Int) -> Void) {
        for (p, segment) in parts.enumerated() {
            let first = documentBase[p]
            var window = WalkWindow(segment.positions.bytes)
            segment.positions.withTokens { view in
                for ordinal in 0..<segment.count where renumbered[first + ordinal] != .max {
                    window.reach(Int(view.starts[ordinal]))
                    body(p, view, ordinal, Int(renumbered[first + ordinal]))
                }
            }
            window.finish()
        }
    }

    /// Every part's tokens at once, `views[p]` part `p`'s.
    private func withTokenViews<R>(from p: Int = 0, _ views: [TokenView] = [], _ body: ([TokenView]) -> R) -> R {
        guard p < parts.count else { return body(views) }
        return parts[p].positions.withTokens { withTokenViews(from: p + 1, views + [$0], body) }
    }

    /// Sorts the `count` entries of `a`, ascending runs ending at `ends`: in place by insertion when they
    /// are few, else merging the runs pairwise through `b` until one is left, in `a` or in `b`, whichever is
    /// returned. `ends` is spent.
    private static func mergeRuns(_ a: UnsafeMutableBufferPointer<UInt64>, _ b: UnsafeMutableBufferPointer<UInt64>,
                                  count: Int, ends: inout [Int]) -> UnsafeMutableBufferPointer<UInt64> {
        if count <= 16 {
            for i in 1..<max(count, 1) {
                let entry = a[i]
                var j = i
                while j > 0 && a[j - 1] > entry { a[j] = a[j - 1]; j -= 1 }
                a[j] = entry
            }
            return a
        }
        var from = a, to = b
        while ends.count > 1 {
            var kept = 0, start = 0, i = 0
            while i < ends.count {
                let middle = ends[i], end = i + 1 < ends.count ? ends[i + 1] : middle
                var x = start, y = middle, out = start
                while x < middle && y < end {
                    if from[x] < from[y] { to[out] = from[x]; x += 1 } else { to[out] = from[y]; y += 1 }
                    out += 1
                }
                while x < middle { to[out] = from[x]; x += 1; out += 1 }
                while y < end { to[out] = from[y]; y += 1; out += 1 }
                ends[kept] = end
                kept += 1
                start = end
                i += 2
            }
            ends.removeLast(ends.count - kept)
            swap(&from, &to)
        }
        return from
    }

    /// Each of the `documents` live documents' tokens, in merged order, recoded under the merged terms. Nil
    /// when `spill` failed.
    func positions(documents: Int, spill: SpillFile?) -> DocumentPositions? {
        var perCode = parts.map { [UInt32](repeating: 0, count: $0.positions.terms.count) }
        forEachLiveDocument { p, view, ordinal, _ in view.forEachCode(ordinal) { code, _ in perCode[p][code] &+= 1 } }
        var frequency = [UInt32](repeating: 0, count: termCount)
        var tokenCount = 0
        for (p, segment) in parts.enumerated() {
            for (code, n) in perCode[p].enumerated() {
                frequency[Int(termMaps[p][Int(segment.positions.terms[code])])] &+= n
                tokenCount += Int(n)
            }
        }
        // As a build codes them: by descending frequency, ties by term id.
        let byFrequency = FrequencyOrder.sorted(frequency)
        var codeOfTerm = [UInt32](repeating: 0, count: termCount)
        for (code, term) in byFrequency.enumerated() { codeOfTerm[Int(term)] = UInt32(code) }
        let recode = parts.enumerated().map { p, segment in
            segment.positions.terms.map { codeOfTerm[Int(termMaps[p][Int($0)])] }
        }
        // Each document's length under the new codes, then its bytes, front to back (each part is in merged
        // order already, so the parts are read front to back too).
        var starts = [UInt32](repeating: 0, count: documents + 1)
        forEachLiveDocument { p, view, ordinal, new in
            var length = 0, previous: UInt16?
            let map = recode[p]
            view.forEachCode(ordinal) { code, location in
                length += TokenCoding.length(code: map[code], location: location, after: previous)
                previous = location
            }
            starts[new + 1] = UInt32(length)
        }
        for ordinal in 0..<documents { starts[ordinal + 1] += starts[ordinal] }
        let total = Int(starts[documents])
        let bytes = MergedBytes(capacity: total + TokenCoding.padding, spill: spill)
        var windows = parts.map { WalkWindow($0.positions.bytes, among: parts.count) }
        withTokenViews { views in
            for (new, source) in sources.enumerated() {
                let p = Int(source.part), view = views[p], map = recode[p]
                windows[p].reach(Int(view.starts[Int(source.ordinal)]))
                bytes.append(atMost: Int(starts[new + 1] - starts[new])) { out in
                    var at = 0, previous: UInt16?
                    view.forEachCode(Int(source.ordinal)) { code, location in
                        at = TokenCoding.write(code: map[code], location: location, after: previous, to: out, at: at)
                        previous = location
                    }
                    return at
                }
            }
        }
        for window in windows { window.finish() }
        bytes.appendZeros(TokenCoding.padding)
        guard let stored = bytes.finish() else { return nil }
        return DocumentPositions(starts: StoredArray(starts), bytes: stored, terms: StoredArray(byFrequency),
                                 tokenCount: tokenCount)
    }
}

/// The arrays a merge of postings reads from every part, each laid end to end: part `p`'s terms start at
/// `termBase[p]` (its offsets at `termBase[p] + p`, one more each), its score values at `scoreBase[p]`.
private struct FlatParts {
    let termMap: [UInt32]
    let termOffsets: [UInt32]
    let termStarts: [UInt32]
    let scoreValues: [UInt16]
    let termBase: [Int]
    let scoreBase: [Int]
    /// Each part's postings bytes, alive as long as the parts are.
    let bytes: [UnsafeRawBufferPointer]

    init(_ merge: SegmentMerge) {
        let postings = merge.parts.map(\.postings)
        termMap = merge.termMaps.flatMap { $0 }
        termOffsets = Array(concatenating: postings.map(\.offsets))
        termStarts = Array(concatenating: postings.map(\.starts))
        scoreValues = postings.flatMap(\.scoreValues)
        func bases(_ counts: [Int]) -> [Int] { counts.reduce(into: [0]) { $0.append($0[$0.count - 1] + $1) } }
        termBase = bases(merge.termMaps.map(\.count))
        scoreBase = bases(postings.map(\.scoreValues.count))
        bytes = postings.map { UnsafeRawBufferPointer($0.bytes.buffer) }
        // Copied: what the parts' files held of them need not stay resident through the pass.
        for part in postings {
            part.offsets.releaseResidentPages()
            part.starts.releaseResidentPages()
        }
    }

    /// These arrays' buffers, and `renumbered`'s.
    func withBuffers<R>(_ renumbered: [UInt32],
                        _ body: (UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<UInt32>,
                                 UnsafeBufferPointer<UInt16>, UnsafeBufferPointer<UInt32>) -> R) -> R {
        termMap.withUnsafeBufferPointer { termMap in
            termOffsets.withUnsafeBufferPointer { termOffsets in
                termStarts.withUnsafeBufferPointer { termStarts in
                    scoreValues.withUnsafeBufferPointer { scoreValues in
                        renumbered.withUnsafeBufferPointer { numbers in body(termMap, termOffsets, termStarts, scoreValues, numbers) }
                    }
                }
            }
        }
    }
}
