import CLibUV
import CTransportShims
import Glibc

/// Outbound: frames are written straight from the caller's payload when the
/// peer keeps up (`uv_try_write`); otherwise at most `inFlightLimit` bytes are
/// copied into one owned `uv_write` and the rest waits in the queue, where it
/// can be coalesced and counted against the slow-consumer cap.
extension Connection {
    static let inFlightLimit = 256 * 1024

    func enqueue(_ payload: [UInt8], coalescingKey: String?) {
        guard !isClosed, !closeRequested else { return }
        let framing = handoff?.framing ?? decoder.framing ?? .contentLength
        var frame = OutboundFrame(
            prefix: FrameEncoder.prefix(for: framing, payloadCount: payload.count),
            body: payload,
            suffix: FrameEncoder.suffix(for: framing),
            coalescingKey: coalescingKey)
        if handoff != nil { frame.acknowledgement = loop.configuration.outputHandoff?.acknowledgement(for: payload) }
        queue.append(frame, coalescingThreshold: loop.configuration.coalescingThreshold)
        let pending = queue.queuedBytes + (chunkInFlight?.count ?? 0)
        if pending > loop.configuration.maxQueuedBytes {
            loop.log("connection \(id): closed, \(pending) bytes queued exceed \(loop.configuration.maxQueuedBytes) (peer not reading)")
            peerLost()
            closeNow()
            return
        }
        pump()
    }

    /// Writes as much as the peer takes now, then hands the rest to libuv in one bounded chunk.
    func pump() {
        guard !isClosed, chunkInFlight == nil else { return }
        while let frame = queue.first {
            switch output {
            case .file(let fd):
                guard writeBlocking(frame, to: fd) else { return }
                acknowledge(frame.acknowledgement)
            case .stream(let handle):
                let written = frame.withUnsentSegments { p, b, s in
                    qt_try_write3(qt_stream(handle), p.baseAddress, p.count, b.baseAddress, b.count,
                                  s.baseAddress, s.count)
                }
                if written < 0 && written != UV_EAGAIN.rawValue {
                    writeFailed(written)
                    return
                }
                queue.advance(by: max(Int(written), 0))
                if Int(written) < frame.remaining {
                    startChunkWrite(handle)
                    return
                }
                acknowledge(frame.acknowledgement)
            }
        }
        closeIfFlushed()
    }

    private func startChunkWrite(_ handle: UnsafeMutableRawPointer) {
        let size = min(Self.inFlightLimit, queue.queuedBytes)
        guard size > 0 else { return }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        var finished: [[UInt8]] = []
        let copied = queue.take(into: chunk, finishing: &finished)
        chunkInFlight = chunk
        chunkAcknowledgements = finished
        let request = UVRequest.allocate(UV_WRITE, owner: self)
        let status = qt_write(qt_write_req(request), qt_stream(handle), chunk.baseAddress, copied) { request, status in
            guard let request, let connection = UVRequest.finish(UnsafeMutableRawPointer(request), as: Connection.self)
            else { return }
            connection.chunkInFlight?.deallocate()
            connection.chunkInFlight = nil
            if status < 0 {
                connection.writeFailed(status)
            } else {
                let finished = connection.chunkAcknowledgements
                connection.chunkAcknowledgements = []
                for acknowledgement in finished { connection.acknowledge(acknowledgement) }
                connection.pump()
            }
        }
        if status < 0 {
            _ = UVRequest.finish(request, as: Connection.self)
            chunk.deallocate()
            chunkInFlight = nil
            writeFailed(status)
        }
    }

    /// Regular files and /dev/null as stdout: plain blocking writes are fine.
    private func writeBlocking(_ head: OutboundFrame, to fd: Int32) -> Bool {
        var frame = head
        while frame.remaining > 0 {
            let written = frame.withUnsentSegments { p, b, s in
                var vectors = [p, b, s].filter { $0.count > 0 }.map {
                    iovec(iov_base: UnsafeMutableRawPointer(mutating: $0.baseAddress), iov_len: $0.count)
                }
                return writev(fd, &vectors, Int32(vectors.count))
            }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&descriptor, 1, -1)
                    continue
                }
                writeFailed(-errno)
                return false
            }
            frame.sent += written
            queue.advance(by: written)
        }
        return true
    }

    /// Tells the relay a reply reached its frontend (or, first, that replies now go there). Best effort:
    /// a lost line only makes the relay answer that request with a retry error should this daemon die.
    func acknowledge(_ acknowledgement: [UInt8]?) {
        guard let acknowledgement, let handoff else { return }
        _ = acknowledgement.withUnsafeBytes {
            Glibc.send(handoff.socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
        }
    }

    private func writeFailed(_ status: Int32) {
        guard !isClosed else { return }
        if status != UV_EPIPE.rawValue && status != UV_ECANCELED.rawValue && status != UV_ECONNRESET.rawValue {
            loop.log("connection \(id): write failed: \(Self.describe(status))")
        }
        peerLost()
        closeNow()
    }
}
