@testable import QuarryEngine
import XCTest

/// Packed token lists:
/// 1. Any tokens (codes of every varint length, runs of next words and jumps, empty documents) decode to
///    exactly what was packed, in order.
/// 2. Frequent terms get the short codes, so real text packs well under the 6 bytes a token of the old layout.
/// 3. `isWellFormed` accepts what was packed and refuses truncated bytes, unknown codes and wrong starts.
final class DocumentPositionsTests: XCTestCase {
    private struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    private func random(documents: Int, termCount: Int, seed: UInt64) -> (starts: [UInt32], terms: [UInt32], locations: [UInt16]) {
        var g = Generator(state: seed)
        var starts: [UInt32] = [0], terms: [UInt32] = [], locations: [UInt16] = []
        for _ in 0..<documents {
            let length = g.next(4) == 0 ? 0 : g.next(60)
            var location = UInt16(g.next(1 << 16))
            for _ in 0..<length {
                // Mostly the next word; sometimes a jump anywhere, including the typo-disabled bit and wrap-around.
                location = g.next(4) == 0 ? UInt16(g.next(1 << 16)) : location &+ 1
                // Skewed, so both short and long codes occur.
                let term = g.next(3) == 0 ? g.next(termCount) : g.next(min(termCount, 40))
                terms.append(UInt32(term))
                locations.append(location)
            }
            starts.append(UInt32(terms.count))
        }
        return (starts, terms, locations)
    }

    func testRandomTokensDecodeToWhatWasPacked() {
        for (termCount, seed) in [(1, 1), (50, 2), (20_000, 3), (5_000_000, 4)] as [(Int, UInt64)] {
            let input = random(documents: 400, termCount: termCount, seed: seed)
            let positions = DocumentPositions(starts: input.starts, terms: input.terms, locations: input.locations, termCount: termCount)
            XCTAssertEqual(positions.tokenCount, input.terms.count)
            XCTAssertTrue(positions.isWellFormed(termCount: termCount), "\(termCount) terms")
            for doc in 0..<400 {
                let range = Int(input.starts[doc])..<Int(input.starts[doc + 1])
                let decoded = positions.tokens(of: doc)
                XCTAssertEqual(decoded.terms, input.terms[range].map { Int($0) }, "terms of document \(doc), \(termCount) terms")
                XCTAssertEqual(decoded.locations, Array(input.locations[range]), "locations of document \(doc)")
            }
        }
    }

    func testFrequentWordsPackSmall() {
        // 100 documents of 50 running words drawn from a skewed vocabulary of 100,000 terms.
        var g = Generator(state: 7)
        var starts: [UInt32] = [0], terms: [UInt32] = [], locations: [UInt16] = []
        for _ in 0..<100 {
            for position in 0..<50 {
                terms.append(UInt32(g.next(10) < 7 ? 90_000 + g.next(30) : g.next(100_000)))
                locations.append(UInt16(position))
            }
            starts.append(UInt32(terms.count))
        }
        let positions = DocumentPositions(starts: starts, terms: terms, locations: locations, termCount: 100_000)
        let perToken = Double(positions.bytes.count) / Double(terms.count)
        XCTAssertLessThan(perToken, 2.0, "bytes a token")
        XCTAssertEqual(positions.terms.first.map { $0 >= 90_000 && $0 < 90_030 }, true, "the most frequent term gets code 0")
    }

    func testMalformedBytesAreRefused() {
        let input = random(documents: 50, termCount: 3_000, seed: 9)
        let good = DocumentPositions(starts: input.starts, terms: input.terms, locations: input.locations, termCount: 3_000)
        XCTAssertTrue(good.isWellFormed(termCount: 3_000))
        XCTAssertFalse(good.isWellFormed(termCount: 10), "codes naming terms the dictionary lacks")
        let truncated = DocumentPositions(starts: good.starts, bytes: StoredArray(good.bytes.array.dropLast(TokenCoding.padding + 1)),
                                          terms: good.terms, tokenCount: good.tokenCount)
        XCTAssertFalse(truncated.isWellFormed(termCount: 3_000), "bytes shorter than the starts say")
        var shifted = good.starts.array
        if let i = shifted.indices.dropFirst().dropLast().first(where: { shifted[$0] > shifted[$0 - 1] + 1 }) { shifted[i] -= 1 }
        let misaligned = DocumentPositions(starts: StoredArray(shifted), bytes: good.bytes, terms: good.terms, tokenCount: good.tokenCount)
        XCTAssertFalse(misaligned.isWellFormed(termCount: 3_000), "a document ending inside a token")
        let miscounted = DocumentPositions(starts: good.starts, bytes: good.bytes, terms: good.terms, tokenCount: good.tokenCount + 1)
        XCTAssertFalse(miscounted.isWellFormed(termCount: 3_000), "a token count the bytes do not hold")
    }
}
