/// Sends one request and waits for its answer. Synchronous on purpose: the
/// Typesense backend is called on read-pool and write-queue threads, never on
/// the libuv loop, so blocking the caller is the simple and cheap choice.
///
/// Any status is an answer; only a missing answer is an error. Implementations
/// keep connections alive between calls and may be called from many threads.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) throws(HTTPTransportError) -> HTTPResponse
}
