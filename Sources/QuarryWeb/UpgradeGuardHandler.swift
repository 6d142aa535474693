import NIOCore
import NIOHTTP1

/// Answers a refused WebSocket upgrade with its own status (401, 403: protocol/keys.md) before the
/// upgrade handler sees it; Hummingbird would answer every declined upgrade with a bare 400. It looks at
/// the connection's first request only (the only one that may upgrade), then leaves the pipeline.
final class UpgradeGuardHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let requestGuard: RequestGuard
    private var refused = false

    init(requestGuard: RequestGuard) { self.requestGuard = requestGuard }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }  // the rest of a refused request
        guard case .head(let head) = unwrapInboundIn(data), let refusal = refusal(of: head) else {
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        respond(context, status: refusal.status, message: refusal.message, challenge: refusal.status == 401)
    }

    /// A first request the parser refused (headers over the limit, bad syntax) gets a status, not silence.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !refused, let parserError = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        let tooLarge = parserError == .headerOverflow
        respond(context, status: tooLarge ? 431 : 400,
                message: tooLarge ? "request headers exceed the limit" : "malformed request", challenge: false)
    }

    private func respond(_ context: ChannelHandlerContext, status: Int, message: String, challenge: Bool) {
        refused = true
        let body = ByteBuffer(string: message + "\n")
        var headers = HTTPHeaders([("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", "\(body.readableBytes)"),
                                   ("Connection", "close")])
        if challenge { headers.add(name: "WWW-Authenticate", value: "Bearer") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(
            version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    /// Why an upgrade to the JSON-RPC WebSocket is refused; nil for anything else (plain requests go on to
    /// WebResponder, which applies the Host rule to them).
    private func refusal(of head: HTTPRequestHead) -> RequestGuard.Refusal? {
        guard head.headers[canonicalForm: "upgrade"].contains(where: { $0.lowercased() == "websocket" }) else { return nil }
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
        guard path == WebListener.rpcPath else { return nil }
        // Two Host headers name two hosts: refused as a foreign one (RFC 9112 §3.2 asks for a 400).
        let hosts = head.headers["Host"]
        let decision = requestGuard.checkUpgrade(
            host: hosts.count == 1 ? hosts[0] : nil, origin: head.headers.first(name: "Origin"),
            authorization: head.headers.first(name: "Authorization"),
            subprotocols: head.headers[canonicalForm: "Sec-WebSocket-Protocol"].map(String.init))
        if case .failure(let refusal) = decision { return refusal }
        return nil
    }
}
