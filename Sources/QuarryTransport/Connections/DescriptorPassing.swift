import CTransportShims

/// Sends an open descriptor along with a line over a Unix socket
/// (`SCM_RIGHTS`): how a relay hands its stdout to the daemon (`OutputHandoffLines`).
public enum DescriptorPassing {
    /// Sends `line` over `socket` with `descriptor` attached. False when the socket refused it.
    public static func send(_ line: [UInt8], with descriptor: Int32, over socket: Int32) -> Bool {
        line.withUnsafeBytes { qt_send_with_descriptor(socket, $0.baseAddress, $0.count, descriptor) } == line.count
    }
}
