@testable import QuarryEngine
import XCTest

/// A merge of segments takes its dictionary from `TermDictionary.merging`: the sorted union of the parts'
/// terms, bytewise (non-ASCII bytes, prefixes, the empty term), with each part's terms mapped to their id
/// in it; parts may be empty or share every term.
final class TermDictionaryMergingTests: XCTestCase {
    private func dictionary(_ words: Set<[UInt8]>) -> TermDictionary {
        var bytes: [UInt8] = [], offsets: [UInt32] = [0]
        for word in words.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            bytes += word
            offsets.append(UInt32(bytes.count))
        }
        return TermDictionary(bytes: bytes, offsets: offsets)
    }

    func testUnionIsSortedAndEveryPartsTermMapsToItself() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = Array("abz09".utf8) + [0x00, 0xC3, 0xA9, 0xFF]
        func word() -> [UInt8] {
            (0..<Int.random(in: 0...6, using: &generator)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        }
        let shared = Set((0..<300).map { _ in word() })
        var sets: [Set<[UInt8]>] = [[], shared]
        for size in [1, 50, 2_000, 7] { sets.append(Set((0..<size).map { _ in word() }).union(shared.prefix(size))) }
        sets.append(shared)
        let parts = sets.map(dictionary)

        let (merged, maps) = TermDictionary.merging(parts)

        let union = sets.reduce(into: Set<[UInt8]>()) { $0.formUnion($1) }.sorted { $0.lexicographicallyPrecedes($1) }
        XCTAssertEqual((0..<merged.count).map { merged.term($0) }, union)
        XCTAssertEqual(maps.count, parts.count)
        for (part, map) in zip(parts, maps) {
            XCTAssertEqual(map.count, part.count)
            for term in 0..<part.count { XCTAssertEqual(merged.term(Int(map[term])), part.term(term)) }
        }
    }

    func testNoPartsOrOnlyEmptyOnesMergeIntoAnEmptyDictionary() {
        XCTAssertEqual(TermDictionary.merging([]).0.count, 0)
        let (merged, maps) = TermDictionary.merging([dictionary([]), dictionary([])])
        XCTAssertEqual(merged.count, 0)
        XCTAssertEqual(maps.map(\.count), [0, 0])
    }
}
