// QuarryWeb — how does a browser reach the daemon?
//
// An HTTP listener (Hummingbird) beside the Unix sockets: JSON-RPC over a WebSocket at /rpc into the
// same Server, so a page joins the sessions editors use; Algolia's REST API under /1/, so Algolia's
// own clients do too (protocol/algolia-rest.md); the keys and Host/Origin rules of protocol/keys.md;
// and the search page, compiled into the binary.

import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import QuarryServer
import QuarrySync
import QuarryTransport

public enum WebListenerError: Error, CustomStringConvertible {
    case cannotListen(WebAddress, String)

    public var description: String {
        switch self {
        case .cannotListen(let address, let reason): "cannot listen for HTTP on \(address): \(reason)"
        }
    }
}

/// Starts the HTTP listener on its own tasks; the Unix-socket transport's loop is not involved.
public enum WebListener {
    static let rpcPath = "/rpc"

    /// Binds now (so a taken port is an error at startup) and returns the bound address, whose port is
    /// the system's choice when port 0 was asked for. Serves until the process ends.
    public static func start(_ options: WebListenerOptions, keys: WebKeys, server: QuarryServer.Server, connections: WebConnections,
                             log: @escaping @Sendable (String) -> Void) throws -> WebAddress {
        let requestGuard = RequestGuard(keys: keys, allowedHosts: options.allowedHosts, allowedOrigins: options.allowedOrigins)
        let ceiling = DescriptorReserve.clientCeiling()
        var decoder = HTTP1Channel.Configuration.DecoderConfiguration()
        decoder.maxHeaderFieldSize = options.maxHeaderBytes
        decoder.maxHeaderListSize = options.maxHeaderBytes
        decoder.maxHeaderFieldCount = 100
        let http1 = HTTP1Channel.Configuration(
            idleTimeout: .seconds(options.idleTimeoutSeconds), httpDecoderConfiguration: decoder)
        let webSocket = WebSocketServerConfiguration(maxFrameSize: options.maxMessageSize)
        let maxMessageSize = options.maxMessageSize
        let bound = Eventual<Result<WebAddress, WebListenerError>>()
        let reported = Locked(false)
        let report: @Sendable (Result<WebAddress, WebListenerError>) -> Void = { result in
            let first = reported.withLock { done in defer { done = true }; return !done }
            if first { bound.deliver(result) }
        }
        // swift-log's default handler writes to stdout, which is a JSON-RPC channel in stdio mode; and
        // nothing the library might log (request heads) may carry a key to a log.
        let silent = Logger(label: "quarry.web", factory: { _ in SwiftLogNoOpLogHandler() })
        // UpgradeGuardHandler has refused what it must, with its status; this checks again (a request
        // that reaches here unguarded is declined with Hummingbird's 400) and learns the key's access.
        let shouldUpgrade: @Sendable (HTTPRequest, any Channel, Logger) throws
            -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> = { request, _, _ in
            guard request.path?.split(separator: "?").first.map(String.init) == rpcPath else { return .dontUpgrade }
            let offered = RequestGuard.subprotocols(request.headerFields[.secWebSocketProtocol])
            let decision = requestGuard.checkUpgrade(
                host: request.authority, origin: request.headerFields[.origin],
                authorization: request.headerFields[.authorization], subprotocols: offered)
            guard case .success(let access) = decision else { return .dontUpgrade }
            var headers = HTTPFields()
            if offered.contains(RequestGuard.jsonRPCSubprotocol) {
                headers[.secWebSocketProtocol] = RequestGuard.jsonRPCSubprotocol
            }
            let connection = WebSocketConnection(
                server: server, connections: connections, access: access, maxMessageSize: maxMessageSize, log: log)
            return .upgrade(headers) { inbound, outbound, _ in
                try await connection.run(inbound: inbound, outbound: outbound)
            }
        }
        let application = Application(
            responder: WebResponder(
                requestGuard: requestGuard,
                algolia: AlgoliaEndpoint(
                    requestGuard: requestGuard, server: server, connections: connections, maxBodyBytes: maxMessageSize,
                    idleSeconds: options.idleTimeoutSeconds)),
            server: HTTPServerBuilder { responder in
                GuardedUpgradeChannel(
                    inner: HTTP1WebSocketUpgradeChannel(
                        responder: responder, configuration: .init(http1: http1, ws: webSocket), shouldUpgrade: shouldUpgrade),
                    requestGuard: requestGuard, descriptorCeiling: ceiling,
                    firstRequestTimeout: .seconds(options.idleTimeoutSeconds), log: log)
            },
            configuration: ApplicationConfiguration(address: .hostname(options.address.host, port: options.address.port)),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? options.address.port
                report(.success(WebAddress(host: options.address.host, port: port)))
            },
            logger: silent)
        Task.detached {
            do {
                try await application.run()
                report(.failure(.cannotListen(options.address, "the listener stopped")))
            } catch {
                report(.failure(.cannotListen(options.address, "\(error)")))
                log("HTTP listener on \(options.address) stopped: \(error)")
            }
        }
        return try bound.wait().get()
    }
}
