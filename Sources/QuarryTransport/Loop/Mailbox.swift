import CLibUV
import CTransportShims
import Glibc
import QuarrySync

/// Work posted to the loop thread from any thread.
enum LoopCommand: Sendable {
    case send(payload: [UInt8], to: ConnectionID, coalescingKey: String?)
    case close(ConnectionID)
    case stop
    case attachStdio(input: StdioDescriptor, output: StdioDescriptor)
    case adoptListener(BoundSocket)
}

extension LoopCommand {
    /// Gives back what a command that will never run holds: descriptors, a claimed socket path.
    func release() {
        switch self {
        case .adoptListener(let socket):
            Glibc.close(socket.fd)
            socket.removeFileAndUnlock()
        case .attachStdio(let input, let output):
            Glibc.close(input.fd)
            Glibc.close(output.fd)
        case .send, .close, .stop:
            break
        }
    }
}

/// The only way into the loop from other threads.
///
/// `uv_async_send` is called while holding the lock, and `closed` is set under
/// the same lock before the async handle is closed, so no thread can wake a
/// handle that is being freed. Commands posted before the loop starts wait here.
final class Mailbox: @unchecked Sendable {
    private let lock = Lock()
    private var commands: [LoopCommand] = []
    private var async: UnsafeMutableRawPointer?
    private var closed = false

    /// Queues `command`; false once the loop has shut down.
    @discardableResult
    func post(_ command: LoopCommand) -> Bool {
        lock.withLock {
            guard !closed else { return false }
            commands.append(command)
            if let async { uv_async_send(qt_async(async)) }
            return true
        }
    }

    /// Called on the loop thread once the async handle exists.
    func open(async handle: UnsafeMutableRawPointer) {
        lock.withLock {
            async = handle
            if !commands.isEmpty { uv_async_send(qt_async(handle)) }
        }
    }

    func drain() -> [LoopCommand] {
        lock.withLock {
            defer { commands = [] }
            return commands
        }
    }

    /// Refuses further posts and returns what was left, before the async handle closes.
    func close() -> [LoopCommand] {
        lock.withLock {
            closed = true
            async = nil
            defer { commands = [] }
            return commands
        }
    }

    var isClosed: Bool { lock.withLock { closed } }
}
