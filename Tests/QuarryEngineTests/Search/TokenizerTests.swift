@testable import QuarryText
import XCTest

/// The tokenizer reports the words `Normalizer.fold` makes of a text, scalar by scalar, with their UTF-8
/// ranges in the original: its ASCII runs (copied and lower-cased at once) must give the same words and
/// ranges as folding each scalar, wherever ASCII meets other scripts, marks or separators.
final class TokenizerTests: XCTestCase {
    private struct Word: Equatable {
        let bytes: [UInt8]
        let start: Int
        let end: Int
    }

    /// The definition: each scalar folded on its own, a word ending at the first scalar that separates.
    private func reference(_ text: String) -> [Word] {
        var words: [Word] = []
        var current: [UInt8] = []
        var start = -1
        var offset = 0
        for scalar in text.unicodeScalars {
            if Normalizer.fold(scalar, into: &current) {
                if start < 0 { start = offset }
            } else if start >= 0 {
                if !current.isEmpty { words.append(Word(bytes: current, start: start, end: offset)) }
                current = []
                start = -1
            }
            offset += String(scalar).utf8.count
        }
        if start >= 0 && !current.isEmpty { words.append(Word(bytes: current, start: start, end: offset)) }
        return words
    }

    private func tokenized(_ text: String) -> [Word] {
        var tokenizer = Tokenizer()
        var words: [Word] = []
        tokenizer.forEachWord(in: text) { words.append(Word(bytes: $0, start: $1, end: $2)) }
        return words
    }

    func testASCIIWordsAreLowerCasedWithTheirRanges() {
        XCTAssertEqual(tokenized("Hello, WORLD 42x!").map { String(decoding: $0.bytes, as: UTF8.self) }, ["hello", "world", "42x"])
        XCTAssertEqual(tokenized("Hello, WORLD 42x!").map { [$0.start, $0.end] }, [[0, 5], [7, 12], [13, 16]])
    }

    func testTheBytesBesideLettersAndDigitsSeparate() {
        // The neighbours of A–Z, a–z and 0–9, whose bit 5 would make them look like letters or digits.
        let text = "a@b[c`d{e/f:g\u{7F}h\u{10}i\u{0}j Z"
        XCTAssertEqual(tokenized(text), reference(text))
        XCTAssertEqual(tokenized(text).count, 11)
    }

    func testASCIIMeetsOtherScriptsInsideOneWord() {
        for text in [
            "Café-Crème2000", "straße STRASSE", "ÉCOLE", "naïve résumé", "Ωmega ΣΊΣΥΦΟΣ", "東京tower 東京",
            "e\u{301}te\u{301}", "rock🎸roll", "ǅungla", "ﬁnance", "İstanbul", "½cup", "x", "", "  ", "...",
            "tail word", "word tail ", "\u{301}mark first", "Ⅻ roman", "a\u{200B}b",
        ] {
            XCTAssertEqual(tokenized(text), reference(text), text)
        }
    }

    func testRandomTextsMatchTheDefinition() {
        let pieces = ["a", "Z", "9", " ", "-", "@", "[", "`", "{", "é", "É", "ß", "\u{301}", "東", "🎸", "Ω", "ﬁ", "\n", "İ"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...24, using: &generator))
                .map { _ in pieces.randomElement(using: &generator) ?? "" }
                .joined()
            XCTAssertEqual(tokenized(text), reference(text), text)
        }
    }
}
