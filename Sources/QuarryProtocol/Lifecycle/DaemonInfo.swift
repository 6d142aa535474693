import QuarryJSON

/// The process that answers, in `initialize`'s result: its pid, the sockets
/// other frontends can join it on, and the data directory it owns.
public struct DaemonInfo: Sendable, Equatable {
    public var pid: Int
    public var sockets: [String]
    public var dataDirectory: String

    public init(pid: Int, sockets: [String], dataDirectory: String) {
        self.pid = pid
        self.sockets = sockets
        self.dataDirectory = dataDirectory
    }

    public var json: JSON {
        ["pid": JSON(pid), "sockets": .array(sockets.map(JSON.string)), "dataDirectory": .string(dataDirectory)]
    }
}
