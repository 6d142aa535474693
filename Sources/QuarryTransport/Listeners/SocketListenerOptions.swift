/// Where and how to listen for socket clients.
public struct SocketListenerOptions: Sendable {
    public var path: String
    /// Create the socket's directory 0700 if missing and refuse one that others
    /// can write or own. Turn off only for a directory the user chose on purpose.
    public var requirePrivateDirectory: Bool
    public var backlog: Int32

    public init(path: String, requirePrivateDirectory: Bool = true, backlog: Int32 = 128) {
        self.path = path
        self.requirePrivateDirectory = requirePrivateDirectory
        self.backlog = backlog
    }
}
