import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// How `quarry search` marks the matched words: in colour, with the index's tags (`<em>…</em>`), or
/// not at all. A terminal gets colour unless `NO_COLOR` is set and not empty (the common convention):
/// then neither colour nor tags (README.md, "Using it"). A pipe or a file gets the tags, which a
/// program can find.
enum HighlightStyle: String, ExpressibleByArgument, CaseIterable {
    case color, tags, none

    static var forStandardOutput: HighlightStyle {
        guard isatty(1) != 0 else { return .tags }
        let noColor = Locations.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return noColor ? .none : .color
    }
}
