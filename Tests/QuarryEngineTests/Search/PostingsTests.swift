@testable import QuarryEngine
import XCTest

/// Gap-coded postings:
/// 1. Random postings (empty terms, one document, dense runs, gaps of every varint length, scores of
///    every code length) read back as packed, through `forEach`, `documents(of:)` and `PostingCursor`.
/// 2. `isWellFormed` accepts what was packed and refuses ordinals out of range, repeated ordinals,
///    unknown score codes and bytes that do not end where the next term starts.
final class PostingsTests: XCTestCase {
    private func random(terms: Int, documents n: Int, seed: UInt64) -> (offsets: [UInt32], docs: [UInt32], scores: [UInt16]) {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        var offsets: [UInt32] = [0], docs: [UInt32] = [], scores: [UInt16] = []
        for _ in 0..<terms {
            let density = [0, 1, 2, 50, 1000][next(5)]
            var d = -1
            if density > 0 {
                while true {
                    d += 1 + next(max(1, n / density))
                    guard d < n else { break }
                    docs.append(UInt32(d))
                    scores.append(UInt16(next(1 << 16)))
                }
            }
            offsets.append(UInt32(docs.count))
        }
        return (offsets, docs, scores)
    }

    func testPackedPostingsReadBackAsGiven() {
        for (n, seed) in [(1, 1), (300, 2), (5_000_000, 3)] as [(Int, UInt64)] {
            let input = random(terms: 60, documents: n, seed: seed)
            let postings = Postings(offsets: input.offsets, docs: input.docs, scores: input.scores)
            XCTAssertTrue(postings.isWellFormed(documents: n))
            for term in 0..<60 {
                let range = Int(input.offsets[term])..<Int(input.offsets[term + 1])
                XCTAssertEqual(postings.documents(of: term), Array(input.docs[range]), "term \(term) of \(n) documents")
                var seen: [(Int, UInt16)] = []
                postings.forEach(term) { d, score in seen.append((d, score)) }
                XCTAssertEqual(seen.map(\.0), input.docs[range].map { Int($0) })
                XCTAssertEqual(seen.map(\.1), Array(input.scores[range]))
                XCTAssertEqual(postings.lowestScores[term], input.scores[range].map { $0 & ~AttributeScore.typoDisabledFlag }.min() ?? .max)
                var cursor = PostingCursor(postings, term: term), walked: [UInt32] = []
                while cursor.advance() { walked.append(UInt32(cursor.document)) }
                XCTAssertEqual(walked, Array(input.docs[range]))
            }
        }
    }

    func testMalformedPostingsAreRefused() {
        let input = random(terms: 40, documents: 10_000, seed: 5)
        let good = Postings(offsets: input.offsets, docs: input.docs, scores: input.scores)
        XCTAssertTrue(good.isWellFormed(documents: 10_000))
        XCTAssertFalse(good.isWellFormed(documents: 10), "ordinals past the segment")
        var repeated = input.docs
        if let i = (1..<repeated.count).first(where: { input.offsets.contains(UInt32($0)) == false }) { repeated[i] = repeated[i - 1] }
        XCTAssertFalse(Postings(offsets: input.offsets, docs: repeated, scores: input.scores).isWellFormed(documents: 10_000),
                       "an ordinal repeated within a term")
        var starts = good.starts.array
        if let t = starts.indices.dropFirst().dropLast().first(where: { starts[$0] > starts[$0 - 1] }) { starts[t] += 1 }
        XCTAssertFalse(Postings(offsets: good.offsets, starts: StoredArray(starts), bytes: good.bytes, scoreValues: good.scoreValues, lowestScores: good.lowestScores)
            .isWellFormed(documents: 10_000), "a term's bytes not ending where the next begins")
        XCTAssertFalse(Postings(offsets: good.offsets, starts: good.starts, bytes: StoredArray(good.bytes.array.dropLast()), scoreValues: good.scoreValues, lowestScores: good.lowestScores)
            .isWellFormed(documents: 10_000), "missing padding")
        XCTAssertFalse(Postings(offsets: good.offsets, starts: good.starts, bytes: good.bytes, scoreValues: Array(good.scoreValues.prefix(3)), lowestScores: good.lowestScores)
            .isWellFormed(documents: 10_000), "score codes past the table")
        XCTAssertLessThan(good.scoreValues.count, good.bytes.count, "one entry per distinct score")
    }
}
