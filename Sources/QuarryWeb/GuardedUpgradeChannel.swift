import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 + WebSocket child channel with `UpgradeGuardHandler` in front of its upgrade handler,
/// and, from the moment a connection is accepted, the descriptor reserve and a deadline for its first bytes
/// (Hummingbird adds its own handlers only once a request head has arrived).
struct GuardedUpgradeChannel: ServerChildChannel {
    let inner: HTTP1WebSocketUpgradeChannel
    let requestGuard: RequestGuard
    let descriptorCeiling: Int32
    let firstRequestTimeout: TimeAmount
    let log: @Sendable (String) -> Void

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
        let requestGuard = self.requestGuard
        do {
            try channel.pipeline.syncOperations.addHandlers(
                [DescriptorReserveHandler(ceiling: descriptorCeiling, log: log), FirstRequestDeadline(timeout: firstRequestTimeout)],
                position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let upgrader = try pipeline.handler(type: NIOTypedHTTPServerUpgradeHandler<HTTP1WebSocketUpgradeChannel.UpgradeResult>.self)
            try pipeline.addHandler(UpgradeGuardHandler(requestGuard: requestGuard), position: .before(upgrader))
            return value
        }
    }

    func handle(value: HTTP1WebSocketUpgradeChannel.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
