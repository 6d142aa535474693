import HTTPTypes
import Hummingbird
import HummingbirdCore

/// Answers the plain HTTP requests: the page's files, Algolia's REST API (`AlgoliaEndpoint`), and the refusals of `/rpc` upgrades that
/// `WebListener` declined (a refused upgrade falls through to here and gets its status).
struct WebResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let requestGuard: RequestGuard
    let algolia: AlgoliaEndpoint

    func respond(to request: Request, context: Context) async throws -> Response {
        if request.uri.path.hasPrefix(AlgoliaEndpoint.pathPrefix) { return await algolia.respond(to: request) }
        let host = request.head.authority
        if let refusal = requestGuard.checkHost(host) { return Self.refuse(refusal) }
        let origin = request.headers[.origin]
        var headers = HTTPFields()
        if let allowed = requestGuard.corsOrigin(for: origin) {
            headers[.accessControlAllowOrigin] = allowed
            headers[.vary] = "Origin"
        }
        // No request here takes a body: refuse one before reading it.
        if let length = request.headers[.contentLength], length != "0" {
            return Self.plain(.contentTooLarge, "request bodies are refused here", headers)
        }
        if request.headers[.transferEncoding] != nil {
            return Self.plain(.contentTooLarge, "request bodies are refused here", headers)
        }
        let path = request.uri.path
        switch request.method {
        case .get, .head:
            break
        case .options where headers[.accessControlAllowOrigin] != nil:
            headers[.accessControlAllowMethods] = "GET"
            headers[.accessControlAllowHeaders] = "Authorization"
            return Response(status: .noContent, headers: headers)
        default:
            headers[.allow] = "GET, HEAD"
            return Self.plain(.methodNotAllowed, "only GET is served here", headers)
        }
        if path == WebListener.rpcPath {
            let upgrade = requestGuard.checkUpgrade(
                host: host, origin: origin, authorization: request.headers[.authorization],
                subprotocols: RequestGuard.subprotocols(request.headers[.secWebSocketProtocol]))
            if case .failure(let refusal) = upgrade { return Self.refuse(refusal) }
            headers[.upgrade] = "websocket"
            return Self.plain(.upgradeRequired, "JSON-RPC is spoken over a WebSocket here", headers)
        }
        guard let asset = PageAssets.asset(at: path) else {
            return Self.plain(.notFound, "not found", headers)
        }
        headers[.contentType] = asset.contentType
        headers[.cacheControl] = "no-cache"
        headers[.xContentTypeOptions] = "nosniff"
        if let referrerPolicy = HTTPField.Name("Referrer-Policy") { headers[referrerPolicy] = "no-referrer" }
        headers[.contentSecurityPolicy] = Self.contentSecurityPolicy(host: host ?? "")
        let body = request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: asset.bytes))
        return Response(status: .ok, headers: headers, body: body)
    }

    /// No inline script or style, nothing from elsewhere; the WebSocket back to this host only.
    /// `host` passed `checkHost`, so it is a plain host[:port].
    static func contentSecurityPolicy(host: String) -> String {
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' ws://\(host); "
            + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    }

    static func refuse(_ refusal: RequestGuard.Refusal) -> Response {
        var headers = HTTPFields()
        if refusal.status == 401 { headers[.wwwAuthenticate] = "Bearer" }
        return plain(HTTPResponse.Status(code: refusal.status), refusal.message, headers)
    }

    static func plain(_ status: HTTPResponse.Status, _ text: String, _ headers: HTTPFields = HTTPFields()) -> Response {
        var headers = headers
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text + "\n")))
    }
}

