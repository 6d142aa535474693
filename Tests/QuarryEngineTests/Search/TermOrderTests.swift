@testable import QuarryEngine
import XCTest

/// A build's dictionary is sorted by `TermOrder`: bytewise, a prefix first, whatever the bytes (zero bytes
/// where its eight-byte keys pad with zeros, non-ASCII, terms that share more than eight bytes, the empty
/// term), exactly as comparing the bytes one at a time orders them.
final class TermOrderTests: XCTestCase {
    private func order(_ terms: [[UInt8]]) -> [[UInt8]] {
        var bytes: [UInt8] = [], offsets: [UInt32] = [0]
        for term in terms {
            bytes += term
            offsets.append(UInt32(bytes.count))
        }
        return TermOrder.sorted(bytes: bytes, offsets: offsets, count: terms.count).map { terms[Int($0)] }
    }

    func testOrdersAsBytesDoWhereTheKeysPadWithZeros() {
        let terms: [[UInt8]] = [[0x61, 0x00], [0x61], [], [0x00], [0x61, 0x00, 0x00], [0x61, 0x01], [0xFF], [0x00, 0x00]]
        XCTAssertEqual(order(terms), [[], [0x00], [0x00, 0x00], [0x61], [0x61, 0x00], [0x61, 0x00, 0x00], [0x61, 0x01], [0xFF]])
    }

    func testTermsSharingMoreThanEightBytesAndNonASCII() {
        let terms = ["internationalisation", "internationalization", "international", "internation", "interna",
                     "intern", "café", "cafe", "cafés", "caf\u{00E9}s\u{0301}", "日本語", "日本", "zzzzzzzzz", "zzzzzzzz"]
            .map { Array($0.utf8) }
        XCTAssertEqual(order(terms), terms.sorted { $0.lexicographicallyPrecedes($1) })
    }

    func testRandomTermsMatchByteComparison() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = Array("abz09".utf8) + [0x00, 0xC3, 0xA9, 0xFF]
        let prefix: [UInt8] = Array("abcdefgh".utf8)
        var terms = Set<[UInt8]>()
        while terms.count < 5_000 {
            let length = Int.random(in: 0...14, using: &generator)
            let head = Bool.random(using: &generator) ? Array(prefix.prefix(Int.random(in: 0...8, using: &generator))) : []
            terms.insert(head + (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
        }
        let shuffled = terms.shuffled(using: &generator)
        XCTAssertEqual(order(shuffled), shuffled.sorted { $0.lexicographicallyPrecedes($1) })
    }
}
