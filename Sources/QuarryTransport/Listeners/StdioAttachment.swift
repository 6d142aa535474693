import CLibUV
import CTransportShims
import Glibc

/// One side of stdio, checked and made ours before the loop sees it.
struct StdioDescriptor: Sendable {
    enum Kind: Sendable { case stream, tty, file }
    let fd: Int32
    let kind: Kind
}

/// stdin and stdout as one connection, whatever they are: a pipe, a socket, a
/// terminal, a regular file or /dev/null.
enum StdioAttachment {
    /// Classifies `fd` and takes our own descriptor for it. Pipes and terminals
    /// are reopened through /proc so the O_NONBLOCK libuv sets does not leak into
    /// a stderr that shares the original file description (`2>&1`).
    static func prepare(_ fd: Int32, writable: Bool) throws -> StdioDescriptor {
        let kind: StdioDescriptor.Kind
        switch uv_guess_handle(fd) {
        case UV_NAMED_PIPE, UV_TCP: kind = .stream
        case UV_TTY: kind = .tty
        case UV_FILE: kind = .file
        default: throw TransportError.unsupportedDescriptor(fd: fd)
        }
        var info = stat()
        let reopenable = fstat(fd, &info) == 0 && (info.st_mode & S_IFMT == S_IFIFO || kind == .tty)
        if reopenable {
            let reopened = Glibc.open("/proc/self/fd/\(fd)", (writable ? O_WRONLY : O_RDONLY) | O_CLOEXEC | O_NOCTTY)
            if reopened >= 0 { return StdioDescriptor(fd: reopened, kind: kind) }
        }
        let duplicate = fcntl(fd, F_DUPFD_CLOEXEC, 3)
        guard duplicate >= 0 else { throw TransportError.system(operation: "dup", path: nil, errno: errno) }
        return StdioDescriptor(fd: duplicate, kind: kind)
    }

    /// Wraps prepared descriptors in libuv handles (on the loop thread).
    static func open(input: StdioDescriptor, output: StdioDescriptor, on loop: EventLoop)
        -> (Connection.Input, Connection.Output)?
    {
        guard let inputHandle = streamHandle(for: input, readable: true, loop: loop) else {
            Glibc.close(output.fd)
            return nil
        }
        guard let outputHandle = streamHandle(for: output, readable: false, loop: loop) else {
            if case .stream(let handle) = inputHandle { UVHandle.close(handle) } else { Glibc.close(input.fd) }
            return nil
        }
        return (inputHandle.asInput, outputHandle.asOutput)
    }

    private enum Side {
        case stream(UnsafeMutableRawPointer), file(Int32)
        var asInput: Connection.Input {
            switch self { case .stream(let h): .stream(h); case .file(let fd): .file(fd) }
        }
        var asOutput: Connection.Output {
            switch self { case .stream(let h): .stream(h); case .file(let fd): .file(fd) }
        }
    }

    private static func streamHandle(for descriptor: StdioDescriptor, readable: Bool, loop: EventLoop) -> Side? {
        switch descriptor.kind {
        case .file:
            return .file(descriptor.fd)
        case .stream:
            let handle = UVHandle.allocate(UV_NAMED_PIPE)
            guard uv_pipe_init(loop.loop, qt_pipe(handle), 0) == 0 else {
                UVHandle.free(handle)
                Glibc.close(descriptor.fd)
                return nil
            }
            let status = uv_pipe_open(qt_pipe(handle), descriptor.fd)
            guard status == 0 else {
                loop.log("stdio: cannot open fd \(descriptor.fd): \(Connection.describe(status))")
                UVHandle.close(handle)
                Glibc.close(descriptor.fd)
                return nil
            }
            return .stream(handle)
        case .tty:
            let handle = UVHandle.allocate(UV_TTY)
            let status = uv_tty_init(loop.loop, qt_tty(handle), descriptor.fd, readable ? 1 : 0)
            guard status == 0 else {
                loop.log("stdio: cannot open terminal fd \(descriptor.fd): \(Connection.describe(status))")
                UVHandle.free(handle)
                Glibc.close(descriptor.fd)
                return nil
            }
            return .stream(handle)
        }
    }
}
