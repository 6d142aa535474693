import QuarryJSON
import QuarryProtocol

extension Server {
    /// One payload: a message or a batch. Runs on the connection's queue.
    func process(_ payload: [UInt8], on connection: ServerConnection) {
        let json: JSON
        do {
            json = try JSONParser.parse(payload, maxDepth: configuration.maxNestingDepth)
        } catch {
            let reply = ResponseError(code: .parseError, message: "parse error: \(error)")
            send(OutgoingMessage.error(reply, id: nil), to: connection.id)
            return
        }
        let id = connection.id
        guard case .array(let elements) = json else {
            handle(IncomingMessage(json: json), on: connection) { reply in
                if let reply { self.send(reply, to: id) }
            }
            return
        }
        guard !elements.isEmpty else {
            send(OutgoingMessage.error(.invalidRequest("invalid request: empty batch"), id: nil), to: id)
            return
        }
        let batch = BatchReply(count: elements.count) { replies in self.send(.array(replies), to: id) }
        for (index, element) in elements.enumerated() {
            handle(IncomingMessage(json: element), on: connection, reply: batch.slot(index))
        }
    }

    /// Handles one message; `reply` is called exactly once, with `nil` when
    /// nothing is owed (a notification).
    func handle(_ message: IncomingMessage, on connection: ServerConnection, reply: @escaping @Sendable (JSON?) -> Void) {
        switch message {
        case .invalid(let id, let error):
            reply(OutgoingMessage.error(error, id: id))
        case .response:
            reply(nil)
        case .notification(let method, let params):
            handleNotification(method, params: params, on: connection)
            reply(nil)
        case .request(let id, let method, let params):
            handleRequest(id: id, method: method, params: params, on: connection, reply: reply)
        }
    }

    private func handleRequest(id: RequestID, method: String, params: JSON?, on connection: ServerConnection,
                               reply: @escaping @Sendable (JSON?) -> Void) {
        switch connection.phase {
        case .awaitingInitialize where method != InitializeRequest.method:
            let error = ResponseError(code: .serverNotInitialized, message: "server not initialized: send 'initialize' before '\(method)'")
            return reply(OutgoingMessage.error(error, id: id))
        case .shutDown:
            return reply(OutgoingMessage.error(.invalidRequest("invalid request: 'shutdown' was received; only 'exit' is accepted now"), id: id))
        default:
            break
        }
        guard let route = route(for: method) else {
            let error = ResponseError(code: .methodNotFound, message: "method not found: '\(method)'")
            return reply(OutgoingMessage.error(error, id: id))
        }
        guard connection.permits(method) else {
            let error = ResponseError(code: .forbidden, message: "forbidden: this connection's key may not call '\(method)' (a search-only key reads and drives sessions only)")
            return reply(OutgoingMessage.error(error, id: id))
        }
        let token = connection.begin(id)
        let context = RequestContext(server: self, connection: connection, id: id, token: token)
        let job: Route.Job
        do throws(ResponseError) {
            job = try route.prepare(Params(params, method: method), context)
        } catch {
            reply(OutgoingMessage.error(error, id: id))
            return connection.end(id, token: token)
        }
        // A write that completed is reported as done even if cancelled meanwhile:
        // the client must not believe it did not happen.
        let honoursLateCancel = route.execution != .write
        let run: @Sendable () -> Void = {
            defer { connection.end(id, token: token) }
            guard !token.isCancelled else { return reply(OutgoingMessage.error(.cancelled, id: id)) }
            do throws(ResponseError) {
                let result = try job.run()
                let cancelled = honoursLateCancel && token.isCancelled
                reply(cancelled ? OutgoingMessage.error(.cancelled, id: id) : OutgoingMessage.result(result, id: id))
            } catch {
                reply(OutgoingMessage.error(error, id: id))
            }
        }
        switch route.execution {
        case .inline:
            run()
        case .session:
            guard !connection.writes.isEmpty else { return run() }
            // Hold the connection's later messages too: a session change is answered before they are looked at.
            connection.queue.suspend()
            connection.writes.after(nil) {
                run()
                connection.queue.resume()
            }
        case .read:
            let pool = readPool
            connection.writes.after(readScope(job.orderingKey)) { pool.submit(key: connection.id.rawValue, run) }
        case .write:
            let keys = [job.orderingKey ?? ""] + (job.otherKey.map { [$0] } ?? [])
            let sequences = keys.map { connection.writes.begin($0) }
            writeQueues.submit(keys: keys) {
                run()
                sequences.forEach(connection.writes.end)
            }
        }
    }

    /// The write keys a read of `index` depends on: the index, and its primary
    /// when it is a replica (whose records are the primary's). nil: every index.
    private func readScope(_ index: String?) -> Set<String>? {
        guard let index else { return nil }
        guard let primary = backend.primary(ofReplica: index) else { return [index] }
        return [index, primary]
    }

    private func handleNotification(_ method: String, params: JSON?, on connection: ServerConnection) {
        guard connection.phase != .awaitingInitialize || method == ExitNotification.method else { return }
        do {
            switch method {
            case ExitNotification.method:
                exit(connection)
            case CancelRequestNotification.method:
                connection.cancel(try CancelRequestNotification(params: Params(params, method: method)).id)
            case InitializedNotification.method:
                break
            default:
                if !method.hasPrefix("$/") { log("ignored unknown notification '\(method)'") }
            }
        } catch {
            log("ignored notification '\(method)': \(error.message)")
        }
    }
}
