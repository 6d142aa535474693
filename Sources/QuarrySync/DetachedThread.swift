#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way Quarry's modules start a thread: a detached pthread running one
/// closure, named so that `top -H` and a debugger tell the workers apart.
///
/// Blocking pumps (stdin → socket), an import's reader and its index build
/// each need a thread that may block for as long as its input lasts, which
/// neither Dispatch's pool nor Swift's cooperative executor allow.
public enum DetachedThread {
    /// Why a thread could not be started: `pthread_create`'s error number.
    public struct StartFailure: Error, CustomStringConvertible {
        public let errno: Int32
        public var description: String { "cannot start a thread: \(String(cString: strerror(errno)))" }
    }

    /// Runs `body` on a new detached thread called `name` (cut to the 15 bytes
    /// Linux keeps). On failure `body` is dropped without running.
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(StartFailure) {
        let job = Unmanaged.passRetained(Job(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            let job = Unmanaged<Job>.fromOpaque(context).takeRetainedValue()
            job.nameThisThread()
            job.body()
            return nil
        }, job)
        guard status == 0 else {
            Unmanaged<Job>.fromOpaque(job).release()
            throw StartFailure(errno: status)
        }
        pthread_detach(thread)
    }

    /// Starts a thread the caller cannot do without (an engine worker): failing
    /// to start one means the process is out of threads or memory.
    public static func startOrFail(name: String, _ body: @escaping @Sendable () -> Void) {
        do { try start(name: name, body) } catch { fatalError("\(error) for \(name)") }
    }

    private final class Job: Sendable {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = String(decoding: name.utf8.prefix(15), as: UTF8.self)
            self.body = body
        }

        /// Through procfs: Glibc's module does not export `pthread_setname_np` (a GNU extension),
        /// and a thread without a name only shows less in `top -H`.
        func nameThisThread() {
            #if os(Linux)
            let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { return }
            _ = name.withCString { write(fd, $0, strlen($0)) }
            close(fd)
            #endif
        }
    }
}
