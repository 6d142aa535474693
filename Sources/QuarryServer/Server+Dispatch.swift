import QuarryProtocol

extension Server {
    /// The one dispatch switch: every method, its handler, and where it runs
    /// (see `Execution`). Adding a method: its type in QuarryProtocol, its entry
    /// in `MessageRegistry`, a case here, a page in `protocol/`.
    func route(for method: String) -> Route? {
        switch method {
        case InitializeRequest.method: .request(InitializeRequest.self, .inline, initialize)
        case ShutdownRequest.method: .request(ShutdownRequest.self, .inline, shutdown)
        case StopServerRequest.method: .request(StopServerRequest.self, .inline, stopServer)
        default: nil
        }
    }
}
