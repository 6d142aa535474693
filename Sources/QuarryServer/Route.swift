import QuarryJSON
import QuarryProtocol

/// A method's handler with its params decoding and where it runs.
struct Route: Sendable {
    let execution: Execution
    let run: @Sendable (Params, RequestContext) throws(ResponseError) -> JSON

    static func request<Request: RequestType>(
        _ type: Request.Type,
        _ execution: Execution,
        _ handler: @escaping @Sendable (Request, RequestContext) throws(ResponseError) -> Request.Response
    ) -> Route {
        Route(execution: execution) { (params, context) throws(ResponseError) -> JSON in
            try handler(Request(params: params), context).json
        }
    }
}
