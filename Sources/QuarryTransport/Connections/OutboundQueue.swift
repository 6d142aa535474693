/// One outbound message: the framing bytes around a shared payload, and how much has been written.
struct OutboundFrame {
    let prefix: [UInt8]
    let body: [UInt8]
    let suffix: [UInt8]
    let coalescingKey: String?
    /// What to tell a relay once the frame is out (see `OutputHandoffLines`).
    var acknowledgement: [UInt8]? = nil
    /// Bytes of prefix + body + suffix already written or handed to libuv.
    var sent = 0

    var count: Int { prefix.count + body.count + suffix.count }
    var remaining: Int { count - sent }

    /// Calls `body` with the unsent part of each of the three segments (some may be empty).
    func withUnsentSegments<R>(
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> R
    ) -> R {
        let prefixSkip = min(sent, prefix.count)
        let bodySkip = min(max(sent - prefix.count, 0), self.body.count)
        let suffixSkip = min(max(sent - prefix.count - self.body.count, 0), suffix.count)
        return prefix.withUnsafeBytes { p in
            self.body.withUnsafeBytes { b in
                suffix.withUnsafeBytes { s in
                    body(
                        UnsafeRawBufferPointer(rebasing: p[prefixSkip...]),
                        UnsafeRawBufferPointer(rebasing: b[bodySkip...]),
                        UnsafeRawBufferPointer(rebasing: s[suffixSkip...]))
                }
            }
        }
    }

    /// Copies up to `destination.count` unsent bytes; returns how many.
    func copyUnsent(into destination: UnsafeMutableRawBufferPointer) -> Int {
        withUnsentSegments { p, b, s in
            var copied = 0
            for segment in [p, b, s] where copied < destination.count {
                let n = min(segment.count, destination.count - copied)
                if n > 0, let base = segment.baseAddress, let target = destination.baseAddress {
                    (target + copied).copyMemory(from: base, byteCount: n)
                }
                copied += n
            }
            return copied
        }
    }
}

/// A connection's not-yet-written frames, with coalescing.
///
/// Above the coalescing threshold a new frame carrying a key supersedes older
/// frames with the same key that have not started to go out; frames without a
/// key are never dropped.
struct OutboundQueue {
    private var frames: [OutboundFrame] = []
    private var head = 0
    /// Unsent bytes of all queued frames.
    private(set) var queuedBytes = 0

    var isEmpty: Bool { head == frames.count }
    var first: OutboundFrame? { isEmpty ? nil : frames[head] }
    var frameCount: Int { frames.count - head }

    /// Appends `frame`; returns how many older frames it superseded.
    @discardableResult
    mutating func append(_ frame: OutboundFrame, coalescingThreshold: Int) -> Int {
        var dropped = 0
        if let key = frame.coalescingKey, queuedBytes + frame.remaining > coalescingThreshold {
            var kept: [OutboundFrame] = []
            kept.reserveCapacity(frames.count - head + 1)
            for old in frames[head...] {
                if old.sent == 0, old.coalescingKey == key {
                    queuedBytes -= old.remaining
                    dropped += 1
                } else {
                    kept.append(old)
                }
            }
            if dropped > 0 { frames = kept; head = 0 }
        }
        frames.append(frame)
        queuedBytes += frame.remaining
        return dropped
    }

    /// Marks `count` more bytes of the head frame as sent, removing it once complete.
    mutating func advance(by count: Int) {
        guard !isEmpty else { return }
        let n = min(count, frames[head].remaining)
        frames[head].sent += n
        queuedBytes -= n
        if frames[head].remaining == 0 {
            head += 1
            if head == frames.count {
                frames.removeAll(keepingCapacity: frames.capacity <= 64)
                head = 0
            } else if head > 32 && head > frames.count / 2 {
                frames.removeSubrange(0..<head)
                head = 0
            }
        }
    }

    /// Copies unsent bytes of as many head frames as fit into `destination`,
    /// marking them sent; returns the number of bytes copied.
    mutating func take(into destination: UnsafeMutableRawBufferPointer) -> Int {
        var ignored: [[UInt8]] = []
        return take(into: destination, finishing: &ignored)
    }

    /// The same, adding the acknowledgements of the frames copied to their end to `finished`.
    mutating func take(into destination: UnsafeMutableRawBufferPointer, finishing finished: inout [[UInt8]]) -> Int {
        var copied = 0
        while copied < destination.count, let frame = first {
            let n = frame.copyUnsent(into: UnsafeMutableRawBufferPointer(rebasing: destination[copied...]))
            copied += n
            advance(by: n)
            if n == frame.remaining, let acknowledgement = frame.acknowledgement { finished.append(acknowledgement) }
            if n == 0 { break }
        }
        return copied
    }

    mutating func removeAll() {
        frames = []
        head = 0
        queuedBytes = 0
    }
}
