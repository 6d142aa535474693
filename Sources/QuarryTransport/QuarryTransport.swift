// Stand-in for the transport's public types until the transport branch merges.
public struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public var description: String { "#\(rawValue)" }
}
public enum ConnectionKind: Sendable { case stdio, socket }
public enum FramingError: Error, Sendable, Equatable {
    case messageTooLarge(declared: Int, limit: Int)
    case lineTooLong(limit: Int)
    case invalidHeader(String)
    case truncatedAtEOF(missing: Int)
}
