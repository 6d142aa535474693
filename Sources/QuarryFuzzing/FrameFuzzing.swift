import QuarryTransport

/// The frame decoder's oracles:
/// 1. a stream means the same however it is split: feeding it whole or in
///    arbitrary chunks gives the same events;
/// 2. every payload it accepted, framed again in the same framing, decodes to
///    exactly that payload.
enum FrameFuzzing {
    static func run(_ data: [UInt8]) throws(OracleViolation) {
        var input = FuzzBytes(data)
        // A small limit, so oversized frames and lines are reached too.
        let limit = 16 + Int(input.byte())
        var sizes = ChunkSizes(seed: input.byte())
        let stream = input.rest

        var whole = FrameDecoder(maxMessageSize: limit)
        let expected = whole.feed(stream) + whole.finish()

        var chunked = FrameDecoder(maxMessageSize: limit)
        var events: [FrameEvent] = []
        var offset = 0
        while offset < stream.count {
            let end = min(stream.count, offset + sizes.next(maximum: 64))
            events += chunked.feed(Array(stream[offset..<end]))
            offset = end
        }
        events += chunked.finish()
        try expect(events == expected, "split stream decoded differently: whole \(expected), chunked \(events)")
        try expect(chunked.framing == whole.framing, "framing detected differently")

        guard let framing = whole.framing else { return }
        for case .frame(let payload) in expected {
            try reframe(payload, framing: framing, limit: limit)
        }
    }

    private static func reframe(_ payload: [UInt8], framing: Framing, limit: Int) throws(OracleViolation) {
        var decoder = FrameDecoder(maxMessageSize: limit)
        var prefix: [UInt8] = []
        if framing == .newlineDelimited {
            // A line's trailing "\r" is the line ending's; a payload ending in
            // one cannot be written as a line of its own.
            guard payload.last != UInt8(ascii: "\r") else { return }
            prefix = Array("{}\n".utf8)
        }
        var events = decoder.feed(prefix + FrameEncoder.encode(payload, as: framing))
        events += decoder.finish()
        if framing == .newlineDelimited { events.removeFirst() }
        try expect(events == [.frame(payload)], "payload \(payload) framed as \(framing) decoded as \(events)")
    }
}
