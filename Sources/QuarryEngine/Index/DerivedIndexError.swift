/// Why a derived index file could not be used; every case means "rebuild from the records".
public enum DerivedIndexError: Error, Sendable, Equatable, CustomStringConvertible {
    case missing
    /// Written by another format version.
    case versionMismatch(found: UInt32, expected: UInt32)
    /// Truncated, bad checksum, or inconsistent structure.
    case corrupt(String)
    /// Built with settings that change the derived structures.
    case settingsMismatch
    /// The file could not be written.
    case io(String)

    public var description: String {
        switch self {
        case .missing: "derived index file is missing"
        case .versionMismatch(let found, let expected): "derived index format \(found), expected \(expected)"
        case .corrupt(let reason): "derived index is corrupt: \(reason)"
        case .settingsMismatch: "derived index was built with other settings"
        case .io(let reason): "derived index I/O error: \(reason)"
        }
    }
}
