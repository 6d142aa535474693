@testable import QuarryEngine
import QuarryJSON
import XCTest
import QuarrySearchContract
import QuarryText

/// Laying out a builder's tokens through its document order and term remap gives the postings and
/// positions of the same tokens first copied into segment order with sorted term ids, and postings
/// laid out in two halves of the documents at once are those laid out in one piece.
final class SegmentTokensTests: XCTestCase {
    func testLayoutThroughTheMapsEqualsLayoutOfACopy() throws {
        var generator = SystemRandomNumberGenerator()
        let settings = try IndexSettings(json: ["searchableAttributes": ["title", "unordered(body)", "tags"]])
        let layout = SearchableLayout(settings: settings)
        for (documents, termCount) in [(0, 5), (1, 1), (300, 40), (2_000, 3_000)] {
            var starts: [UInt32] = [0], terms: [UInt32] = [], locations: [UInt16] = []
            for _ in 0..<documents {
                for _ in 0..<Int.random(in: 0...30, using: &generator) {
                    // Skewed, with repeats inside a document, every slot and the typo-disabled bit.
                    terms.append(UInt32(Bool.random(using: &generator) ? Int.random(in: 0..<min(termCount, 8), using: &generator)
                                                                      : Int.random(in: 0..<termCount, using: &generator)))
                    locations.append(Location.make(slot: Int.random(in: 0...3, using: &generator), position: Int.random(in: 0...40, using: &generator))
                                     | (Int.random(in: 0..<8, using: &generator) == 0 ? SegmentBuilder.typoDisabledBit : 0))
                }
                starts.append(UInt32(terms.count))
            }
            let order = Array(0..<documents).shuffled(using: &generator)
            let sortedTerm = Array(0..<termCount).shuffled(using: &generator).map { UInt32($0) }
            let tokens = SegmentTokens(starts: starts, terms: terms, locations: locations, order: order, sortedTerm: sortedTerm)

            var copiedStarts: [UInt32] = [0], copiedTerms: [UInt32] = [], copiedLocations: [UInt16] = []
            for old in order {
                for t in Int(starts[old])..<Int(starts[old + 1]) {
                    copiedTerms.append(sortedTerm[Int(terms[t])])
                    copiedLocations.append(locations[t])
                }
                copiedStarts.append(UInt32(copiedTerms.count))
            }
            let copy = SegmentTokens(starts: copiedStarts, terms: copiedTerms, locations: copiedLocations, termCount: termCount)

            let postings = PostingsLayout.postings(tokens, layout: layout), expectedPostings = PostingsLayout.postings(copy, layout: layout)
            XCTAssertEqual(postings.offsets.array, expectedPostings.offsets.array, "\(documents) documents")
            XCTAssertTrue(postings.bytes.array == expectedPostings.bytes.array, "postings bytes, \(documents) documents")
            XCTAssertEqual(postings.scoreValues, expectedPostings.scoreValues)
            XCTAssertEqual(postings.lowestScores.array, expectedPostings.lowestScores.array)
            let split = PostingsLayout.postings(tokens, layout: layout, splitFrom: 0)
            XCTAssertEqual(split.offsets.array, expectedPostings.offsets.array, "split in two, \(documents) documents")
            XCTAssertTrue(split.bytes.array == expectedPostings.bytes.array, "split in two, \(documents) documents")
            XCTAssertEqual(split.lowestScores.array, expectedPostings.lowestScores.array)
            let positions = DocumentPositions(tokens), expectedPositions = DocumentPositions(copy)
            XCTAssertEqual(positions.starts.array, expectedPositions.starts.array, "\(documents) documents")
            XCTAssertTrue(positions.bytes.array == expectedPositions.bytes.array, "positions bytes, \(documents) documents")
            XCTAssertEqual(positions.terms.array, expectedPositions.terms.array)
            for ordinal in 0..<documents {
                let old = order[ordinal]
                let range = Int(starts[old])..<Int(starts[old + 1])
                let decoded = positions.tokens(of: ordinal)
                XCTAssertEqual(decoded.terms, range.map { Int(sortedTerm[Int(terms[$0])]) })
                XCTAssertEqual(decoded.locations, Array(locations[range]))
            }
        }
    }
}
