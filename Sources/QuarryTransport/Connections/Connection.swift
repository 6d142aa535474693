import CLibUV
import CTransportShims
import Glibc

/// One peer on the loop thread: its inbound decoder, its outbound queue, and the
/// libuv handles (or plain file descriptors) underneath.
///
/// Lifecycle: open → (input ended: `didClose` sent, still writable) → closing
/// (flushing, after `close(_:)`) → closed. `didClose` is delivered exactly once.
final class Connection {
    enum Input { case stream(UnsafeMutableRawPointer), file(Int32) }
    enum Output { case stream(UnsafeMutableRawPointer), file(Int32) }

    let id: ConnectionID
    let kind: ConnectionKind
    unowned let loop: EventLoop
    let input: Input
    /// Changes once at most: to the descriptor a relay hands over (`OutputHandoffLines`).
    private(set) var output: Output
    /// Set when replies go to a relay's frontend: its framing, and the relay's socket for acknowledgements.
    private(set) var handoff: (framing: Framing, socket: Int32)?
    var decoder: FrameDecoder
    var queue = OutboundQueue()
    /// The owned copy handed to `uv_write`, if any; at most one at a time.
    var chunkInFlight: UnsafeMutableRawBufferPointer?
    /// The acknowledgements of the frames that end in `chunkInFlight`.
    var chunkAcknowledgements: [[UInt8]] = []
    private var receivedFrame = false
    private(set) var inputEnded = false
    private(set) var closeRequested = false
    private(set) var isClosed = false
    private var notifiedClose = false
    private var notifiedPeerLost = false
    private var fileReadBuffer: UnsafeMutableRawBufferPointer?
    private var fileReadPending = false

    init(id: ConnectionID, kind: ConnectionKind, loop: EventLoop, input: Input, output: Output) {
        self.id = id
        self.kind = kind
        self.loop = loop
        self.input = input
        self.output = output
        self.decoder = FrameDecoder(maxMessageSize: loop.configuration.maxMessageSize)
        if case .stream(let handle) = input { UVHandle.setOwner(handle, self) }
        if case .stream(let handle) = output, !sameStream { UVHandle.setOwner(handle, self) }
    }

    private var sameStream: Bool {
        if case .stream(let a) = input, case .stream(let b) = output { return a == b }
        return false
    }

    // MARK: Reading

    func startReading() {
        switch input {
        case .stream(let handle):
            let status = uv_read_start(qt_stream(handle), { handle, _, buf in
                guard let buf, let connection = UVHandle.owner(of: UnsafeMutableRawPointer(handle), as: Connection.self)
                else { return }
                let buffer = connection.loop.readBuffer
                qt_set_buf(buf, buffer.baseAddress, buffer.count)
            }, { stream, nread, buf in
                guard let connection = UVHandle.owner(of: UnsafeMutableRawPointer(stream), as: Connection.self)
                else { return }
                let base = nread > 0 ? buf?.pointee.base : nil
                connection.didRead(nread, UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : nread))
            })
            if status < 0 { readFailed(status) }
        case .file:
            readFile()
        }
    }

    private func stopReading() {
        if case .stream(let handle) = input, !isClosed { uv_read_stop(qt_stream(handle)) }
    }

    private func didRead(_ nread: Int, _ bytes: UnsafeRawBufferPointer) {
        guard !isClosed, !inputEnded, !closeRequested else { return }
        if nread > 0 {
            deliver(decoder.feed(bytes))
        } else if nread == Int(UV_EOF.rawValue) {
            endOfInput()
        } else if nread < 0 {
            readFailed(Int32(truncatingIfNeeded: nread))
        }
    }

    /// The peer will send nothing more. Replies may still go out until `close(_:)`.
    private func endOfInput() {
        stopReading()
        inputEnded = true
        deliver(decoder.finish())
        notifyClosed()
        if kind == .socket && peerHungUp { peerLost() }
    }

    /// A Unix socket whose peer closed it reports a hang-up; one whose peer only shut down its write
    /// side (a client waiting for its replies) does not.
    private var peerHungUp: Bool {
        guard case .stream(let handle) = input else { return false }
        var descriptor: uv_os_fd_t = -1
        guard uv_fileno(qt_handle(handle), &descriptor) == 0 else { return false }
        var probe = pollfd(fd: descriptor, events: 0, revents: 0)
        return poll(&probe, 1, 0) == 1 && probe.revents & Int16(POLLHUP) != 0
    }

    /// Nothing sent will reach the peer any more (see `TransportDelegate`).
    func peerLost() {
        notifyClosed()
        guard !notifiedPeerLost, !closeRequested else { return }
        notifiedPeerLost = true
        loop.delegate.transport(loop.transport, didLosePeer: id)
    }

    private func readFailed(_ status: Int32) {
        if status != UV_ECONNRESET.rawValue { loop.log("connection \(id): read failed: \(Self.describe(status))") }
        deliver(decoder.finish())
        peerLost()
        closeNow()
    }

    /// Called after feeding, never during: the delegate must not see the decoder mid-mutation.
    private func deliver(_ events: [FrameEvent]) {
        for event in events {
            switch event {
            case .frame(let payload):
                // A relay's handoff request is its first line; its echo requests come only after one.
                let first = !receivedFrame
                receivedFrame = true
                let lines = loop.configuration.outputHandoff
                if first && kind == .socket, let lines, adoptOutput(payload, lines) { continue }
                if handoff != nil, let echoed = lines?.echoed(payload) {
                    enqueue(Array(echoed), coalescingKey: nil)
                } else {
                    loop.delegate.transport(loop.transport, didReceive: payload, on: id)
                }
            case .error(let error): loop.delegate.transport(loop.transport, didFail: error, on: id)
            }
        }
    }

    /// Takes over the descriptor a relay sent with its handoff request; false if `payload` is not one.
    /// Refused (the relay keeps relaying replies) unless nothing was sent to the socket yet.
    private func adoptOutput(_ payload: [UInt8], _ lines: any OutputHandoffLines) -> Bool {
        guard let framing = lines.requestedFraming(payload) else { return false }
        guard case .stream(let socket) = input, handoff == nil, queue.isEmpty, chunkInFlight == nil,
              uv_pipe_pending_count(qt_pipe(socket)) > 0
        else {
            loop.log("connection \(id): output handoff refused (no descriptor, or output already under way)")
            return true
        }
        let handle = UVHandle.allocate(UV_NAMED_PIPE)
        guard uv_pipe_init(loop.loop, qt_pipe(handle), 0) == 0 else {
            UVHandle.free(handle)
            return true
        }
        var descriptor: uv_os_fd_t = -1
        let status = uv_accept(qt_stream(socket), qt_stream(handle))
        guard status == 0, uv_fileno(qt_handle(socket), &descriptor) == 0 else {
            loop.log("connection \(id): output handoff failed: \(Self.describe(status))")
            UVHandle.close(handle)
            return true
        }
        UVHandle.setOwner(handle, self)
        output = .stream(handle)
        handoff = (framing, descriptor)
        acknowledge(lines.adopted + [10])
        return true
    }

    /// Regular files and character devices cannot be polled: read them on libuv's pool.
    private func readFile() {
        guard case .file(let fd) = input, !isClosed, !inputEnded, !closeRequested else { return }
        let buffer = fileReadBuffer ?? .allocate(byteCount: 64 * 1024, alignment: 16)
        fileReadBuffer = buffer
        let request = UVRequest.allocate(UV_FS, owner: self)
        fileReadPending = true
        let status = qt_fs_read(loop.loop, qt_fs_req(request), fd, buffer.baseAddress, buffer.count) { request in
            guard let request else { return }
            let result = request.pointee.result
            uv_fs_req_cleanup(request)
            guard let connection = UVRequest.finish(UnsafeMutableRawPointer(request), as: Connection.self) else { return }
            connection.fileReadPending = false
            guard !connection.isClosed, let buffer = connection.fileReadBuffer else {
                connection.releaseFileInput()
                return
            }
            // A file read of 0 bytes is end of file.
            connection.didRead(result == 0 ? Int(UV_EOF.rawValue) : result,
                               UnsafeRawBufferPointer(rebasing: buffer[..<max(0, result)]))
            connection.readFile()
        }
        if status < 0 {
            fileReadPending = false
            _ = UVRequest.finish(request, as: Connection.self)
            readFailed(status)
        }
    }

    private func releaseFileInput() {
        guard !fileReadPending else { return }  // the pool thread still uses fd and buffer
        fileReadBuffer?.deallocate()
        fileReadBuffer = nil
        if case .file(let fd) = input { Glibc.close(fd) }
    }

    // MARK: Closing

    /// `close(_:)` from the server: stop reading, flush, then close.
    func requestClose() {
        guard !isClosed, !closeRequested else { return }
        closeRequested = true
        stopReading()
        closeIfFlushed()
    }

    func closeIfFlushed() {
        if closeRequested, queue.isEmpty, chunkInFlight == nil { closeNow() }
    }

    /// Closes handles at once, dropping whatever is still queued.
    func closeNow() {
        guard !isClosed else { return }
        stopReading()
        isClosed = true
        queue.removeAll()
        switch input {
        case .stream(let handle): UVHandle.close(handle)
        case .file: releaseFileInput()
        }
        switch output {
        case .stream(let handle): if !sameStream { UVHandle.close(handle) }
        case .file(let fd): Glibc.close(fd)
        }
        notifyClosed()
        loop.connectionDidClose(self)
    }

    private func notifyClosed() {
        guard !notifiedClose else { return }
        notifiedClose = true
        loop.delegate.transport(loop.transport, didClose: id)
    }

    static func describe(_ status: Int32) -> String {
        guard let name = uv_err_name(status), let message = uv_strerror(status) else { return "error \(status)" }
        return "\(String(cString: name)) (\(String(cString: message)))"
    }
}
