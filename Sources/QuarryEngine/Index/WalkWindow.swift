/// A walk front to back over a large array read in place (the checks of a file just opened) holds a few
/// MiB of it at a time: each piece is mapped in one pass before it is read (a fault per 64 KiB costs more)
/// and let go of once the walk is past it, so that opening a 1M-record segment does not hold its token
/// positions (over 100 MiB) whole. On the heap, it does nothing.
struct WalkWindow {
    static let piece = 4 << 20

    private let array: StoredArray<UInt8>
    private var limit = 0
    private var released = 0

    init(_ array: StoredArray<UInt8>) {
        self.array = array
    }

    /// The walk reads from byte `p` on.
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
        array.releaseResidentPages(released..<at)
        released = at
        limit = min(at + Self.piece, array.count)
        array.populate(at..<limit)
    }
}
