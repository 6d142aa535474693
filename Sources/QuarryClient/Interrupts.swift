#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM turned into bytes on a pipe that a waiting client polls beside its socket, so a
/// long request is cancelled and its rollback awaited instead of the client dying while the daemon
/// goes on (protocol/README.md, "Cancellation").
public enum Interrupts {
    /// Created before any handler can run: the handler only reads it.
    static let pipe: (read: Int32, write: Int32) = {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { return (-1, -1) }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        return (ends[0], ends[1])
    }()

    /// From now on SIGINT and SIGTERM are caught, to be seen by `DaemonConnection.request(interruptible:)`.
    public static func catchTerminationSignals() {
        guard pipe.write >= 0 else { return }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            var byte = UInt8(truncatingIfNeeded: signal)
            _ = Glibc.write(Interrupts.pipe.write, &byte, 1)  // async-signal-safe; a full pipe already says it
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0  // no SA_RESTART: a blocked read returns EINTR
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
    }

    /// The signal caught since the last call, if any.
    static func take() -> Int32? {
        var byte: UInt8 = 0
        var caught: Int32?
        while Glibc.read(pipe.read, &byte, 1) == 1 { caught = Int32(byte) }
        return caught
    }
}
