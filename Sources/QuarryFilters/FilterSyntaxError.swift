/// Why a filter could not be parsed, and where.
///
/// `position` is a 0-based offset in Unicode scalars into the text that was
/// parsed (the same as characters unless the text has combining marks or
/// emoji sequences); for the array forms it is an offset into the one
/// string element named at the start of `message` (`facetFilters[1][0]: ...`).
public struct FilterSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public var position: Int
    public var message: String

    public init(position: Int, message: String) {
        self.position = position
        self.message = message
    }

    /// For example `expected a value after ':' at 14`.
    public var description: String { "\(message) at \(position)" }
}
