import CLibUV
import CTransportShims
import Glibc

/// Accepts socket clients on the loop thread; each becomes a `.socket` connection.
final class UnixSocketListener {
    let socket: BoundSocket
    unowned let loop: EventLoop
    private let handle: UnsafeMutableRawPointer
    /// Descriptors at or above this are kept for the engine (SQLite readers,
    /// imports, index files): a client that would take one is refused, so a
    /// flood of connections cannot starve the searches of the ones already served.
    private let clientDescriptorCeiling = UnixSocketListener.descriptorCeiling()
    private var refusing = false

    /// Adopts the already listening fd into libuv; nil (socket released) on failure.
    init?(socket: BoundSocket, loop: EventLoop) {
        self.socket = socket
        self.loop = loop
        handle = UVHandle.allocate(UV_NAMED_PIPE)
        guard uv_pipe_init(loop.loop, qt_pipe(handle), 0) == 0 else {
            UVHandle.free(handle)
            Glibc.close(socket.fd)
            socket.removeFileAndUnlock()
            return nil
        }
        UVHandle.setOwner(handle, self)
        var status = uv_pipe_open(qt_pipe(handle), socket.fd)
        if status != 0 {
            Glibc.close(socket.fd)  // not adopted, so closing the handle will not close it
        } else {
            status = uv_listen(qt_stream(handle), socket.backlog) { server, status in
                UVHandle.owner(of: UnsafeMutableRawPointer(server), as: UnixSocketListener.self)?.accept(status)
            }
        }
        if status != 0 {
            loop.log("listen on \(socket.path) failed: \(Connection.describe(status))")
            close()
            return nil
        }
    }

    private func accept(_ status: Int32) {
        guard status == 0 else {
            loop.log("accept on \(socket.path) failed: \(Connection.describe(status))")
            return
        }
        let client = UVHandle.allocate(UV_NAMED_PIPE)
        // IPC mode: a relay may send its stdout along (`OutputHandoffLines`).
        guard uv_pipe_init(loop.loop, qt_pipe(client), 1) == 0 else {
            UVHandle.free(client)
            return
        }
        guard uv_accept(qt_stream(handle), qt_stream(client)) == 0 else {
            UVHandle.close(client)
            return
        }
        var descriptor: uv_os_fd_t = -1
        if uv_fileno(qt_handle(client), &descriptor) == 0, descriptor >= clientDescriptorCeiling {
            // Descriptors are handed out lowest first, so this one's number is
            // about how many are open. Log once per burst of refusals.
            if !refusing {
                loop.log("refusing socket clients: too many open files (\(descriptor) open; the engine keeps the last "
                         + "\(Self.openFileLimit() - clientDescriptorCeiling) of the limit of \(Self.openFileLimit()), ulimit -n)")
            }
            refusing = true
            UVHandle.close(client)
            return
        }
        refusing = false
        loop.open(kind: .socket, input: .stream(client), output: .stream(client))
    }

    private static func openFileLimit() -> Int32 { DescriptorReserve.openFileLimit() }

    private static func descriptorCeiling() -> Int32 { DescriptorReserve.clientCeiling() }

    /// Stops accepting, then removes the socket file if it is still ours.
    func close() {
        UVHandle.close(handle)  // closes socket.fd
        socket.removeFileAndUnlock()
    }
}
