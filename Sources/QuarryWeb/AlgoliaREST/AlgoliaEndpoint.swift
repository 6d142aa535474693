import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore
import QuarryAlgoliaREST
import QuarryJSON
import QuarryServer

/// Algolia's REST API under `/1/` (protocol/algolia-rest.md): the listener's Host and Origin rules,
/// Algolia's key headers, then the request read by `AlgoliaRouter` and sent to the server on the
/// link of the key's kind.
struct AlgoliaEndpoint: Sendable {
    static let pathPrefix = "/1/"

    let requestGuard: RequestGuard
    let router: AlgoliaRouter
    let admin: RESTLink
    let searchOnly: RESTLink
    let maxBodyBytes: Int

    init(requestGuard: RequestGuard, server: QuarryServer.Server, connections: WebConnections, maxBodyBytes: Int,
         idleSeconds: Int64) {
        self.requestGuard = requestGuard
        let clock = TaskClock()
        router = AlgoliaRouter(stamp: { clock.next() })
        admin = RESTLink(server: server, connections: connections, access: .admin, idleSeconds: idleSeconds)
        searchOnly = RESTLink(server: server, connections: connections, access: .searchOnly, idleSeconds: idleSeconds)
        self.maxBodyBytes = maxBodyBytes
    }

    static let keyHeader = HTTPField.Name("X-Algolia-API-Key")
    static let allowedHeaders = "x-algolia-api-key, x-algolia-application-id, content-type, authorization"

    func respond(to request: Request) async -> Response {
        if requestGuard.checkHost(request.head.authority) != nil {
            return Self.json(.error(403, RequestGuard.Refusal.foreignHost.message), [:])
        }
        let origin = request.headers[.origin]
        if let origin, !requestGuard.isAllowedOrigin(origin, host: request.head.authority ?? "") {
            return Self.json(.error(403, RequestGuard.Refusal.foreignOrigin.message), [:])
        }
        var headers = HTTPFields()
        if let allowed = requestGuard.corsOrigin(for: origin) {
            headers[.accessControlAllowOrigin] = allowed
            headers[.vary] = "Origin"
        }
        let method: AlgoliaRequest.Method
        switch request.method {
        case .get: method = .get
        case .post: method = .post
        case .put: method = .put
        case .delete: method = .delete
        case .options:
            // A preflight: only an origin given with --http-allow-origin has CORS headers to answer with.
            guard headers[.accessControlAllowOrigin] != nil else {
                return Self.json(.error(403, RequestGuard.Refusal.foreignOrigin.message), headers)
            }
            headers[.accessControlAllowMethods] = "GET, POST, PUT, DELETE"
            headers[.accessControlAllowHeaders] = Self.allowedHeaders
            headers[.accessControlMaxAge] = "600"
            return Response(status: .noContent, headers: headers)
        default:
            headers[.allow] = "GET, POST, PUT, DELETE, OPTIONS"
            return Self.json(.error(405, "method \(request.method) is not served here"), headers)
        }
        guard let (segments, query) = AlgoliaRequest.split(target: request.uri.description) else {
            return Self.json(.error(404, "no such endpoint"), headers)
        }
        // The key as Algolia's clients send it: a header, or (InstantSearch's lite client) a query item.
        let key = Self.keyHeader.flatMap { request.headers[$0] } ?? query["x-algolia-api-key"]
            ?? RequestGuard.presentedKey(authorization: request.headers[.authorization], subprotocols: [])
        guard let key, let access = requestGuard.keys.access(for: key) else {
            return Self.json(.invalidKey, headers)
        }
        var body: JSON?
        do {
            let bytes = try await request.body.collect(upTo: maxBodyBytes)
            if bytes.readableBytes > 0 {
                body = try JSONParser.parse(bytes.readableBytesView)
            }
        } catch let error as JSONParseError {
            return Self.json(.error(400, "the body is not JSON: \(error)"), headers)
        } catch {
            return Self.json(.error(413, "the body exceeds the limit of \(maxBodyBytes) bytes (--max-message-size)"), headers)
        }
        let plan = router.plan(AlgoliaRequest(method: method, segments: segments, query: query, body: body))
        switch plan {
        case .respond(let response):
            return Self.json(response, headers)
        case .call where access == .searchOnly && !plan.searchOnlyMay, .forward where access == .searchOnly && !plan.searchOnlyMay:
            return Self.json(.error(403, "Method not allowed with this API key"), headers)
        case .call(let calls, let assemble):
            let link = access == .admin ? admin : searchOnly
            return Self.json(assemble(await link.send(calls)), headers)
        case .forward(let call):
            let link = access == .admin ? admin : searchOnly
            switch await link.forward(call) {
            case .success(let body):
                headers[.contentType] = "application/json; charset=utf-8"
                return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
            case .failure(let failure):
                return Self.json(failure.response, headers)
            }
        }
    }

    static func json(_ response: AlgoliaResponse, _ headers: HTTPFields) -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: HTTPResponse.Status(code: response.status), headers: headers,
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: JSONWriter.encode(response.body))))
    }
}
