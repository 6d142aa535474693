import ArgumentParser
import QuarryClient
import QuarryJSON
import QuarryProtocol
#if canImport(Glibc)
import Glibc
#endif

/// A long request that Ctrl-C (SIGINT) or SIGTERM cancels instead of abandoning: the daemon is asked
/// to cancel it, its reply (sent once the work is undone) is awaited, `undone` is printed and the
/// command exits 128 + the signal. If the request finished first, its result is returned and
/// `connection.interruption` says the user asked to stop.
func interruptibleRequest(
    _ connection: DaemonConnection, _ method: String, params: JSON, command: String, undone: String,
    onNotification: (String, JSON) -> Void = { _, _ in }
) throws -> JSON {
    Interrupts.catchTerminationSignals()
    do {
        return try connection.request(method, params: params, interruptible: true, onNotification: onNotification)
    } catch .rpc(let error) where error.code == .requestCancelled && connection.interruption != nil {
        Log.standardError.write(afterProgress + "quarry \(command): interrupted; \(undone)")
        throw ExitCode(128 + (connection.interruption ?? 2))
    } catch .interrupted(let signal) {
        Log.standardError.write(afterProgress + "quarry \(command): interrupted again; stopped waiting (the daemon cancels the request of a client that is gone)")
        throw ExitCode(128 + signal)
    } catch {
        // Not dead: without this clause Swift 6.3 crashes compiling the typed catches above.
        throw error
    }
}

/// Ends a progress bar's line on a terminal, so the message starts a line of its own.
var afterProgress: String { isatty(2) != 0 ? "\n" : "" }
