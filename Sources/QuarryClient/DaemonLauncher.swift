#if canImport(Glibc)
import Glibc
#endif

/// Starts `quarry serve --socket` in the background, detached from the
/// caller's session and terminal, for clients that find no daemon running.
public enum DaemonLauncher {
    /// The running executable, so the daemon is the same build as its client.
    public static var currentExecutable: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return CommandLine.arguments.first ?? "quarry" }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Spawns the daemon with `arguments` after `serve`, its output appended to
    /// `logPath`, and waits up to `timeout` seconds for `socketPath` to answer.
    public static func start(executable: String = currentExecutable, socketPath: String, arguments: [String],
                             logPath: String, timeout: Double = 5) throws(ClientError) {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, posixSpawnSetSID)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        let argv = [executable, "serve", "--socket", socketPath] + arguments
        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, executable, &actions, &attributes, &cArguments, environ)
        guard status == 0 else {
            throw .cannotConnect(path: socketPath, reason: "could not start \(executable): \(String(cString: strerror(status)))")
        }
        let deadline = monotonicSeconds() + timeout
        var delay: UInt32 = 5_000
        while monotonicSeconds() < deadline {
            if (try? DaemonConnection(socketPath: socketPath)) != nil { return }
            var exitStatus: Int32 = 0
            if waitpid(pid, &exitStatus, WNOHANG) == pid {
                throw .cannotConnect(path: socketPath, reason: "the daemon it started exited at once; see \(logPath)")
            }
            usleep(delay)
            delay = min(delay * 2, 200_000)
        }
        throw .cannotConnect(path: socketPath, reason: "the daemon it started did not answer within \(Int(timeout)) s; see \(logPath)")
    }

    /// glibc's POSIX_SPAWN_SETSID, which Swift's Glibc module does not export
    /// (it sits behind _GNU_SOURCE).
    private static let posixSpawnSetSID: Int16 = 0x80

    private static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
