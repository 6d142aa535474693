/// A walk front to back over a large array read in place (the checks of a file just opened, a merge's passes
/// over its parts, a save writing a spilled array) holds a few MiB of it at a time: each piece is mapped in one
/// pass before it is read (a fault per 64 KiB costs more) and let go of once the walk is past it, so that
/// opening or merging 1M records does not hold their token positions (over 100 MiB) whole. On the heap, it
/// does nothing.
struct WalkWindow<Element: BitwiseCopyable> {
    /// How many bytes a walk holds at a time.
    static var piece: Int { 4 << 20 }

    private let array: StoredArray<Element>
    /// How many elements a piece holds.
    let step: Int
    private var limit = 0
    private var released = 0

    /// A walk over `array`, one of `walks` going on at once (a merge's pass over each of its parts): each
    /// holds its share of `piece`, at least the 64 KiB a fault maps anyway. A merge of 39 parts each smaller
    /// than a piece held every part's postings and token positions until its passes ended (230 MiB of file
    /// pages at 1M records; Benchmarks/RESULTS.md, "The read-back shares what the save wrote").
    init(_ array: StoredArray<Element>, among walks: Int = 1) {
        self.array = array
        step = max(max(Self.piece / max(walks, 1), 64 << 10) / max(MemoryLayout<Element>.stride, 1), 1)
    }

    /// The walk reads from element `p` on.
    @inline(__always)
    mutating func reach(_ p: Int) {
        if p >= limit { advance(p) }
    }

    /// The walk is over (or stopped): what it held goes.
    func finish() {
        array.releaseResidentPages(released..<array.count)
    }

    private mutating func advance(_ p: Int) {
        guard array.isMapped else {
            limit = .max
            return
        }
        let at = min(p, array.count)
        limit = min(at + step, array.count)
        array.populate(at..<limit)
        // A fault maps the 64 KiB block around the page it needs (the page cache's pieces of a file written
        // 64 KiB at a time, and fault-around: `FileMapping`), so mapping the new piece maps again the part
        // of its block before `at`, which a release up to `at` made first had let go of and no later one
        // would: a merge of 32 parts kept 43 MiB of their postings and token positions so
        // (Benchmarks/RESULTS.md, "The final merge"). What goes, after, is what lies before that block.
        let below = array.blockStart(of: at, alignment: Self.faultAround)
        if below > released {
            array.releaseResidentPages(released..<below)
            released = below
        }
    }

    /// What the kernel maps around a fault (its `fault_around_bytes`, 64 KiB by default).
    static var faultAround: Int { 64 << 10 }
}
