/// What a relay and the daemon say to each other, on the relay's socket, about
/// the relay's stdout.
///
/// A relay (a `quarry serve` whose data directory another process owns) may
/// send its stdout descriptor with its first line; the daemon then writes that
/// relay's replies and pushes straight to the relay's frontend, and writes on
/// the socket only what the relay needs to know. The transport moves the
/// descriptor and the frames; what the lines look like belongs to whoever
/// speaks the relay's protocol (QuarryRelay), so the transport knows no
/// JSON-RPC. Without it (`TransportConfiguration.outputHandoff` nil) no
/// connection adopts an output.
public protocol OutputHandoffLines: Sendable {
    /// The frontend's framing, if `payload` (a socket connection's first frame) asks for the handoff.
    func requestedFraming(_ payload: [UInt8]) -> Framing?
    /// The message to write to the frontend, if `payload` asks the daemon to write one for the relay.
    func echoed(_ payload: [UInt8]) -> ArraySlice<UInt8>?
    /// What to tell the relay on the socket once `frame` has gone to the frontend, if anything.
    func acknowledgement(for frame: [UInt8]) -> [UInt8]?
    /// The line that tells the relay its output was adopted (without its newline).
    var adopted: [UInt8] { get }
}
