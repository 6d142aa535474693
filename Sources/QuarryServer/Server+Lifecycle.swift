import QuarryBackend
import QuarryProtocol
import QuarrySearchContract

extension Server {
    func initialize(_ request: InitializeRequest, _ context: RequestContext) throws(ResponseError) -> InitializeRequest.Response {
        let encoding = request.negotiatedPositionEncoding
        let wasWaiting = context.connection.state.withLock { state -> Bool in
            guard state.phase == .awaitingInitialize else { return false }
            state.phase = .running
            state.positionEncoding = PositionEncoding(rawValue: encoding) ?? .utf16
            return true
        }
        guard wasWaiting else { throw .invalidRequest("invalid request: 'initialize' was already received on this connection") }
        return InitializeRequest.Response(
            serverName: configuration.serverName, serverVersion: configuration.serverVersion,
            protocolVersion: configuration.protocolVersion, positionEncoding: encoding,
            methods: MessageRegistry.requestMethods, daemon: configuration.daemon,
            backend: backend.description.json())
    }

    func shutdown(_ request: ShutdownRequest, _ context: RequestContext) throws(ResponseError) -> VoidResponse {
        context.connection.state.withLock { $0.phase = .shutDown }
        return VoidResponse()
    }

    func stopServer(_ request: StopServerRequest, _ context: RequestContext) throws(ResponseError) -> VoidResponse {
        log("stopServer from connection \(context.connection.id): stopping")
        // After the reply is queued: the transport flushes before closing.
        context.connection.queue.async { self.stop(exitCode: 0) }
        return VoidResponse()
    }

    func listenHTTP(_ request: ListenHTTPRequest, _ context: RequestContext) throws(ResponseError) -> ListenHTTPRequest.Response {
        guard let start = configuration.listenHTTP else {
            throw .invalidRequest("invalid request: this daemon cannot serve HTTP")
        }
        do {
            return try start()
        } catch {
            throw ResponseError(code: .resourceExhausted, message: "cannot start the HTTP listener: \(error)",
                                data: ["reason": "resourceExhausted"])
        }
    }

    /// `exit`: ends the daemon on stdio, the connection on a socket.
    func exit(_ connection: ServerConnection) {
        switch connection.kind {
        case .stdio: stop(exitCode: connection.phase == .shutDown ? 0 : 1)
        case .socket: sink.close(connection.id)
        }
    }
}
