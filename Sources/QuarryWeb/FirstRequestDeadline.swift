import NIOCore

/// Closes a connection that sends nothing for `timeout` after it was accepted.
///
/// Hummingbird's idle timeout starts with the first request: its HTTP handlers join the pipeline
/// only once the upgrade handler has seen a request head. Without this, a page or a script that
/// opens connections and stays silent would hold descriptors for ever.
final class FirstRequestDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount) { self.timeout = timeout }

    func handlerAdded(context: ChannelHandlerContext) {
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { context.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) { stop() }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        stop()
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    private func stop() {
        deadline?.cancel()
        deadline = nil
    }
}
