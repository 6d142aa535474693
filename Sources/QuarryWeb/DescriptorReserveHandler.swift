import NIOCore
import QuarryTransport

/// Closes an HTTP connection that took one of the descriptors the engine keeps (DescriptorReserve),
/// as the Unix-socket listener refuses such a client.
final class DescriptorReserveHandler: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = NIOAny
    let ceiling: Int32
    let log: @Sendable (String) -> Void

    init(ceiling: Int32, log: @escaping @Sendable (String) -> Void) {
        self.ceiling = ceiling
        self.log = log
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let lowest = DescriptorReserve.lowestFree()
        guard lowest >= ceiling else { return }
        log("refusing an HTTP client: too many open files (\(lowest) open; the engine keeps the rest of ulimit -n)")
        context.close(promise: nil)
    }
}
