import Foundation
import QuarrySearchContract
import QuarryText

/// How is a snapshot kept across restarts, and how do we know a file is safe to use?
///
/// Layout: a 40-byte header (magic `QRYSRCH1`, format version, generation, settings fingerprint, body
/// length), the body (per segment its arrays, see `BinaryBuffer`), and a 16-byte footer (checksum of
/// header and body, magic `QRYEND01`). Written to a temporary file, fsynced, then renamed over the
/// target (and the directory fsynced), so a crash leaves the old file or the new one, never a mix.
/// Mapped, small arrays copied out and large ones left in place (see `FileMapping`): document ids, the
/// term dictionary, postings and their offsets, token positions and their starts, numbers, sort keys, the id
/// lookup, facet values per document and documents per value, and the prefix sets, saved because rebuilding
/// them would decode every posting. Then checked whole on two threads (searches decode postings and token
/// positions unchecked; `decode`).
/// A file of another format version is rebuilt from the store, with a log line saying so.
extension SearchIndex {
    static let formatVersion: UInt32 = 14
    private static let magic: UInt64 = 0x3148_4352_5352_5951 // "QRYSRCH1"
    private static let footerMagic: UInt64 = 0x3130_444E_4559_5251 // "QRYEND01"
    private static let headerSize = 40

    /// Hash of the settings that shape the derived structures.
    static func fingerprint(_ settings: IndexSettings) -> UInt64 {
        Checksum.fnv("\(settings.searchableAttributes)|\(settings.ranking)|\(settings.customRanking)|"
            + "\(settings.disableTypoToleranceOnAttributes)|\(settings.attributesForFaceting)|\(settings.attributeForDistinct ?? "")")
    }

    /// Saves the index: a first pass counts the bytes (the header holds the length, and the checksum
    /// is seeded with it), the second streams them to the file.
    public func write(to path: String, generation: UInt64) throws {
        try write(to: path, generation: generation, shelf: nil)
    }

    /// `write(to:generation:)`, keeping the arrays it wrote on `shelf` for the file's read-back.
    func write(to path: String, generation: UInt64, shelf: ArrayShelf?) throws {
        var sizing = BinaryWriter()
        writeContent(to: &sizing, generation: generation, bodyLength: 0)
        let length = sizing.count
        try AtomicFile.write(to: path) { (fd) throws(DerivedIndexError) in
            var writer = BinaryWriter(fd: fd, checksummedLength: length, shelf: shelf)
            writeContent(to: &writer, generation: generation, bodyLength: length - Self.headerSize)
            let checksum = writer.seal()
            writer.write(checksum)
            writer.write(Self.footerMagic)
            try writer.finish()
        }
    }

    /// The header and body: everything the footer's checksum covers.
    private func writeContent(to writer: inout BinaryWriter, generation: UInt64, bodyLength: Int) {
        writer.write(Self.magic)
        writer.write(UInt64(Self.formatVersion))
        writer.write(generation)
        writer.write(Self.fingerprint(settings))
        writer.write(UInt64(bodyLength))
        writer.write(UInt64(segments.count))
        for (segment, deadSet) in zip(segments, dead) {
            writer.write(array: segment.docIDs)
            writer.write(UInt64(segment.keyCount))
            segment.sortValues.write(to: &writer)
            writer.write(UInt64(segment.sortRanks.count))
            for ranks in segment.sortRanks { writer.write(array: ranks) }
            writer.write(array: segment.dictionary.bytes)
            writer.write(array: segment.dictionary.offsets)
            writer.write(array: segment.postings.offsets)
            writer.write(array: segment.postings.starts)
            writer.write(array: segment.postings.bytes)
            writer.write(array: segment.postings.scoreValues)
            writer.write(array: segment.postings.lowestScores)
            writer.write(array: segment.positions.starts)
            writer.write(array: segment.positions.bytes)
            writer.write(array: segment.positions.terms)
            writer.write(UInt64(segment.positions.tokenCount))
            writer.write(array: segment.lookup)
            writer.write(array: deadSet.words)
            segment.facets.write(to: &writer)
            segment.prefixSets.write(to: &writer)
            // A segment served from the file being replaced is read whole here: its pages would stay resident
            // until the view is swapped (at 1M records, 217 MiB of a process's file pages during a save).
            segment.releaseResidentPages()
        }
    }

    public static func read(from path: String, settings: IndexSettings) throws -> (index: SearchIndex, generation: UInt64) {
        try read(from: path, settings: settings, shelf: nil)
    }

    /// `read(from:settings:)` for a save's read-back, which shares the arrays the save wrote (`shelf`).
    static func read(from path: String, settings: IndexSettings, shelf: ArrayShelf?) throws -> (index: SearchIndex, generation: UInt64) {
        let mapping = try FileMapping(path: path)
        let opened = try decode(mapping, settings: settings, shelf: shelf)
        mapping.releaseResidentPages()
        return opened
    }

    /// Decodes a mapped file, whose large arrays are then read in place rather than copied.
    private static func decode(_ mapping: FileMapping, settings: IndexSettings, shelf: ArrayShelf?) throws(DerivedIndexError)
        -> (index: SearchIndex, generation: UInt64)
    {
        let raw = mapping.raw
        guard raw.count >= headerSize + 16 else { throw .corrupt("file too short (\(raw.count) bytes)") }
        var header = BinaryReader(mapping, offset: 0)
        guard try header.read() == magic else { throw .corrupt("not a Quarry search index") }
        let version = try header.read()
        guard version == UInt64(formatVersion) else {
            throw .versionMismatch(found: UInt32(truncatingIfNeeded: version), expected: formatVersion)
        }
        let generation = try header.read()
        let fingerprint = try header.read()
        let bodyLength = try header.readInt(max: raw.count)
        guard headerSize + bodyLength + 16 == raw.count else {
            throw .corrupt("length \(raw.count) does not match the header (\(headerSize + bodyLength + 16))")
        }
        let content = UnsafeRawBufferPointer(rebasing: raw[0..<headerSize + bodyLength])
        var footer = BinaryReader(mapping, offset: headerSize + bodyLength)
        let stored = try footer.read()
        guard try footer.read() == footerMagic else { throw .corrupt("bad footer") }
        guard fingerprint == Self.fingerprint(settings) else { throw .settingsMismatch }
        // Reading the arrays checks every bound; the rest runs on two threads: the checksum, read beside the
        // mapping, on one; on the other the walks over the token positions and the postings, each structure
        // mapped a few MiB at a time and let go behind the walk, so that opening never holds the whole file
        // (Benchmarks/RESULTS.md, "Opening an index maps one structure at a time"), nor a whole structure.
        // A damaged file is reported as such, whatever it broke first.
        let segments: [(segment: Segment, dead: Bitset)]
        do throws(DerivedIndexError) {
            segments = try readSegments(mapping, contentLength: content.count, shelf: shelf)
        } catch {
            guard mapping.checksum(length: content.count) == stored else { throw .corrupt("checksum mismatch") }
            throw error
        }
        mapping.releaseResidentPages()
        let contentLength = content.count
        let (checksummed, walked) = Parallel.both({ mapping.checksum(length: contentLength) == stored }, {
            () -> (positions: Bool, consistent: Bool) in
            for (segment, _) in segments {
                // Each walk maps and lets go of its structure a piece at a time (`WalkWindow`).
                guard segment.positions.isWellFormed(termCount: segment.dictionary.count) else { return (false, true) }
                let consistent = isConsistent(segment)
                mapping.releaseResidentPages()
                guard consistent else { return (true, false) }
            }
            return (true, true)
        })
        guard checksummed else { throw .corrupt("checksum mismatch") }
        guard walked.positions else { throw .corrupt("inconsistent token positions") }
        guard walked.consistent else { throw .corrupt("inconsistent segment structure") }
        let layout = SearchableLayout(settings: settings), order = StaticOrder(settings: settings)
        let index = SearchIndex(settings: settings, layout: layout, order: order, segments: segments.map(\.segment), dead: segments.map(\.dead))
        return (index, generation)
    }

    /// Each segment's arrays, with their lengths checked: copied out of the file, or left in it (`readStored`).
    private static func readSegments(_ mapping: FileMapping, contentLength: Int, shelf: ArrayShelf?)
        throws(DerivedIndexError) -> [(segment: Segment, dead: Bitset)]
    {
        var reader = BinaryReader(mapping, length: contentLength, offset: headerSize)
        reader.shelf = shelf
        let segmentCount = try reader.readInt(max: 1 << 20)
        var segments: [(segment: Segment, dead: Bitset)] = []
        for _ in 0..<segmentCount {
            let docIDs = try reader.readStored(of: DocID.self)
            let keyCount = try reader.readInt(max: 1024)
            let sortValues = try NumberArray.read(from: &reader)
            let rankCount = try reader.readInt(max: 1024)
            var sortRanks: [[UInt32]] = []
            for _ in 0..<rankCount { sortRanks.append(try reader.readArray(of: UInt32.self)) }
            let dictionary = TermDictionary(bytes: try reader.readStored(of: UInt8.self), offsets: try reader.readStored(of: UInt32.self))
            let postings = Postings(offsets: try reader.readStored(of: UInt32.self), starts: try reader.readStored(of: UInt32.self),
                                    bytes: try reader.readStored(of: UInt8.self), scoreValues: try reader.readArray(of: UInt16.self),
                                    lowestScores: try reader.readStored(of: UInt16.self))
            let positions = DocumentPositions(starts: try reader.readStored(of: UInt32.self), bytes: try reader.readStored(of: UInt8.self),
                                              terms: try reader.readStored(of: UInt32.self),
                                              tokenCount: try reader.readInt(max: contentLength))
            let lookup = try reader.readStored(of: UInt32.self)
            let deadSet = Bitset(words: try reader.readArray(of: UInt64.self))
            let facets = try SegmentFacets.read(from: &reader, documents: docIDs.count)
            let prefixSets = try PrefixSets.read(from: &reader, documents: docIDs.count, termCount: max(dictionary.count, 0))
            let segment = Segment(docIDs: docIDs, sortValues: sortValues, keyCount: keyCount, sortRanks: sortRanks,
                                  dictionary: dictionary, postings: postings, positions: positions, lookup: lookup,
                                  facets: facets, prefixSets: prefixSets)
            segments.append((segment, deadSet))
        }
        return segments
    }

    /// Consistency checks so a bad file fails here, not as an out-of-bounds trap in a search (token
    /// positions are checked on the other thread, see `decode`).
    private static func isConsistent(_ s: Segment) -> Bool {
        let n = s.docIDs.count, terms = s.dictionary.offsets.count - 1
        guard terms >= 0, s.dictionary.offsets.last.map({ Int($0) == s.dictionary.bytes.count }) ?? false,
              s.postings.offsets.count == terms + 1, s.postings.isWellFormed(documents: n),
              s.positions.starts.count == n + 1,
              s.sortValues.count == n * s.keyCount, s.lookup.count == n, s.lookup.allSatisfy({ Int($0) < n }),
              s.sortRanks.allSatisfy({ $0.count == n }),
              zip(s.dictionary.offsets, s.dictionary.offsets.dropFirst()).allSatisfy({ $0 <= $1 })
        else { return false }
        return true
    }

}
