import Foundation
import QuarryFuzzing
import XCTest

/// Every input in `Fuzz/Corpus/<target>/`, the committed seeds and every crash
/// a fuzzer found, replayed through its target's oracle on each test run, so a
/// fixed crash stays fixed without a fuzzing build.
final class FuzzCorpusReplayTests: XCTestCase {
    private static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/Corpus")

    func testFrames() throws { try replay(.frames) }
    func testJSON() throws { try replay(.json) }
    func testFilters() throws { try replay(.filters) }
    func testSettings() throws { try replay(.settings) }
    func testImports() throws { try replay(.imports) }
    func testDispatch() throws { try replay(.dispatch) }

    func testEveryTargetIsReplayed() {
        XCTAssertEqual(FuzzTarget.allCases.count, 6, "add a replay test for the new target")
    }

    private func replay(_ target: FuzzTarget) throws {
        let folder = Self.corpus.appendingPathComponent(target.rawValue)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertFalse(files.isEmpty, "no seeds in \(folder.path)")
        for file in files {
            let data = try [UInt8](Data(contentsOf: folder.appendingPathComponent(file)))
            do {
                try target.run(data)
            } catch {
                XCTFail("\(target.rawValue)/\(file): \(error)")
            }
        }
    }
}
