import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import QuarrySync

/// `HTTPTransport` on Foundation's URLSession (libcurl on Linux), for `https://` nodes
/// (`SocketTransport` sends the rest): no extra package, connections kept alive and reused
/// across calls and threads. Each call blocks its thread on a semaphore until the data task completes.
public final class URLSessionTransport: HTTPTransport {
    /// One session for the process, so every cluster shares its connection pool.
    public static let shared = URLSessionTransport()

    private let session: URLSession

    public init(maximumConnectionsPerHost: Int = 16) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = maximumConnectionsPerHost
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.invalidateAndCancel()
    }

    public func send(_ request: HTTPRequest) throws(HTTPTransportError) -> HTTPResponse {
        guard let url = URL(string: request.baseURL + request.target) else {
            throw HTTPTransportError(.invalidURL, request.baseURL)
        }
        var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: request.timeout)
        urlRequest.httpMethod = request.method.rawValue
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        if let body = request.body {
            urlRequest.httpBody = Data(body)
        }

        let outcome = Locked<Result<HTTPResponse, HTTPTransportError>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: urlRequest) { data, response, error in
            let result = Self.result(data: data, response: response, error: error)
            outcome.withLock { $0 = result }
            finished.signal()
        }
        task.resume()
        // URLSession's timeout is an idle timeout; this bounds the whole exchange.
        if finished.wait(timeout: .now() + request.timeout + 1) == .timedOut {
            task.cancel()
            finished.wait()
            throw HTTPTransportError(.timedOut, "no answer within \(request.timeout) s")
        }
        switch outcome.withLock({ $0 }) {
        case .success(let response): return response
        case .failure(let error): throw error
        case nil: throw HTTPTransportError(.other, "no result")
        }
    }

    private static func result(data: Data?, response: URLResponse?, error: (any Error)?)
        -> Result<HTTPResponse, HTTPTransportError>
    {
        if let error {
            return .failure(transportError(error))
        }
        guard let http = response as? HTTPURLResponse else {
            return .failure(HTTPTransportError(.other, "not an HTTP response"))
        }
        return .success(HTTPResponse(status: http.statusCode, body: data.map { [UInt8]($0) } ?? []))
    }

    private static func transportError(_ error: any Error) -> HTTPTransportError {
        guard let urlError = error as? URLError else {
            return HTTPTransportError(.other, String(describing: type(of: error)))
        }
        let code = urlError.code
        let detail = "URLError \(code.rawValue)"
        switch code {
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
            return HTTPTransportError(.cannotConnect, code == .cannotConnectToHost ? "connection refused" : detail)
        case .badURL, .unsupportedURL:
            return HTTPTransportError(.invalidURL, detail)
        case .timedOut:
            return HTTPTransportError(.timedOut, detail)
        case .networkConnectionLost, .badServerResponse, .cancelled:
            return HTTPTransportError(.connectionLost, detail)
        default:
            return HTTPTransportError(.other, detail)
        }
    }
}
