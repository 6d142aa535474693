@testable import QuarryEngine
import XCTest

/// The interner gives each distinct word one id, in order of first sight, whatever its length: words
/// that share their first 8 bytes, that are prefixes of one another, or that differ only past byte 8
/// or 16 stay apart, through the table's growth.
final class TermInternerTests: XCTestCase {
    func testDistinctWordsGetDistinctIdsInOrderOfFirstSight() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = Array("abcz09".utf8) + [0xC3, 0xA9, 0xFF, 0x01]
        var words: [[UInt8]] = [[], [0], [0, 0], Array("abcdefgh".utf8), Array("abcdefghi".utf8), Array("abcdefg".utf8),
                                Array("abcdefghijklmnop".utf8), Array("abcdefghijklmnopq".utf8), Array("abcdefghijklmnoq".utf8)]
        for _ in 0..<20_000 {
            let length = [1, 2, 7, 8, 9, 15, 16, 17, 24, 40][Int.random(in: 0..<10, using: &generator)]
            words.append((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
        }
        // Shared heads: the same first 8 bytes with different tails and lengths.
        for tail in 0..<200 { words.append(Array("sharedhd".utf8) + Array(String(tail).utf8)) }
        var interner = TermInterner(capacity: 4)
        var expected: [[UInt8]: UInt32] = [:]
        for _ in 0..<2 {
            for word in words.shuffled(using: &generator) {
                let id = interner.intern(word)
                if let known = expected[word] {
                    XCTAssertEqual(id, known, "\(word)")
                } else {
                    XCTAssertEqual(Int(id), expected.count, "a new word gets the next id: \(word)")
                    expected[word] = id
                }
            }
        }
        XCTAssertEqual(interner.count, expected.count)
        for (word, id) in expected { XCTAssertEqual(Array(interner.term(Int(id))), word) }
    }
}
