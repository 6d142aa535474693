import QuarrySync

/// How close to a given term can a word starting with a given byte stand, anywhere in the segment?
///
/// Per term, two 256-entry rows: the smallest position distance (0…7, 8 for none) from an occurrence
/// of the term to a later (`after`) or earlier (`before`) token of the same attribute run whose term
/// starts with each byte. `ProximityBound` turns them into a lower bound on a query's proximity, so
/// ranking can stop once the page holds documents that reach it (`samsung t`: no t-word ever stands
/// within two words of `samsung`, so 3 is the best any document can do, not 1).
/// Rows are computed on first use from the term's documents' tokens and kept (segments are immutable).
final class NeighborTables: Sendable {
    static let none: UInt8 = 8
    /// Rows kept per segment; past it, rows are computed per query and dropped.
    static let capacity = 16_384
    /// One row: `after` and `before` distances for each first byte.
    static let rowBytes = 512

    private let rows = Locked<[Int: [UInt8]]>([:])
    private let limit: Int

    init(capacity: Int = NeighborTables.capacity) { limit = capacity }

    /// The row of `term`: `after` at `byte`, `before` at `256 + byte`.
    func row(_ term: Int, segment: Segment) -> [UInt8] {
        if let row = rows.withLock({ $0[term] }) { return row }
        let row = Self.compute(term, segment: segment)
        rows.withLock { if $0.count < limit { $0[term] = row } }
        return row
    }

    func isCached(_ term: Int) -> Bool { rows.withLock { $0[term] != nil } }

    var rowCount: Int { rows.withLock { $0.count } }

    private static func compute(_ term: Int, segment: Segment) -> [UInt8] {
        var row = [UInt8](repeating: none, count: rowBytes)
        let positions = segment.positions, postings = segment.postings, dictionary = segment.dictionary
        let disabled = SegmentBuilder.typoDisabledBit
        func firstByte(_ t: Int) -> Int? { dictionary.length(t) > 0 ? Int(dictionary.byte(t, at: 0)) : nil }
        row.withUnsafeMutableBufferPointer { row in
            for document in postings.documents(of: term) {
                let tokens = positions.tokens(of: Int(document))
                let range = tokens.terms.indices
                for t in range where tokens.terms[t] == term {
                    let location = tokens.locations[t] & ~disabled
                    let slot = Location.slot(location), p = Location.position(location)
                    // The whole run of the attribute, as `ProximityScorer` pairs within it.
                    var j = t + 1
                    while j < range.upperBound {
                        let other = tokens.locations[j] & ~disabled
                        guard Location.slot(other) == slot else { break }
                        if let b = firstByte(tokens.terms[j]) {
                            row[b] = min(row[b], UInt8(clamping: max(Location.position(other) - p, 0)))
                        }
                        j += 1
                    }
                    j = t - 1
                    while j >= range.lowerBound {
                        let other = tokens.locations[j] & ~disabled
                        guard Location.slot(other) == slot else { break }
                        if let b = firstByte(tokens.terms[j]) {
                            row[256 + b] = min(row[256 + b], UInt8(clamping: max(p - Location.position(other), 0)))
                        }
                        j -= 1
                    }
                }
            }
        }
        return row
    }
}
