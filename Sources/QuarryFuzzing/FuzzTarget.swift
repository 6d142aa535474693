/// The input surfaces Quarry is fuzzed on. Each target feeds arbitrary bytes to
/// one surface and checks an oracle stronger than "did not crash"; a violated
/// oracle is an `OracleViolation`, which the libFuzzer driver turns into a crash
/// and the corpus replay tests into a failure.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// The frame decoder, fed a byte stream split at arbitrary points.
    case frames
    /// The JSON parser and writer.
    case json
    /// The `filters` string and the facetFilters/numericFilters/tagFilters arrays.
    case filters
    /// An Algolia settings object, decoded and rendered back.
    case settings
    /// The NDJSON, JSON-array and CSV import readers.
    case imports
    /// Whole requests through the server's dispatch, in process, over a real engine.
    case dispatch

    public func run(_ data: [UInt8]) throws(OracleViolation) {
        switch self {
        case .frames: try FrameFuzzing.run(data)
        case .json: try JSONFuzzing.run(data)
        case .filters: try FilterFuzzing.run(data)
        case .settings: try SettingsFuzzing.run(data)
        case .imports: try ImportFuzzing.run(data)
        case .dispatch: try DispatchFuzzing.run(data)
        }
    }
}

/// An oracle that did not hold: the surface accepted something it cannot give back.
public struct OracleViolation: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Throws when `condition` is false; the message is built only then.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws(OracleViolation) {
    if !condition { throw OracleViolation(message()) }
}
