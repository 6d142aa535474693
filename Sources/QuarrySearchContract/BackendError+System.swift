#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension BackendError {
    /// A failed system call, by its `errno`: a full disk and an exhausted limit
    /// get their own cases, so a client can tell them from a damaged store.
    package static func system(_ code: Int32, _ what: String) -> BackendError {
        let reason = "\(what): \(String(cString: strerror(code)))"
        switch code {
        case ENOSPC, EDQUOT: return .diskFull(reason)
        case EMFILE, ENFILE, ENOMEM: return .resourceExhausted(reason)
        default: return .storage(reason)
        }
    }
}
