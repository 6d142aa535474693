import QuarryJSON
import QuarryProtocol

/// A method's params decoding, its handler, and where it runs.
struct Route: Sendable {
    /// A request whose params were checked, ready to run where its route says.
    struct Job: Sendable {
        /// Writes with the same key run one at a time, in arrival order.
        let orderingKey: String?
        let run: @Sendable () throws(ResponseError) -> JSON
    }

    let execution: Execution
    /// Decodes params on the connection's queue, so bad params are refused
    /// in order and without taking a worker.
    let prepare: @Sendable (Params, RequestContext) throws(ResponseError) -> Job

    static func request<Request: RequestType>(
        _ type: Request.Type,
        _ execution: Execution,
        _ handler: @escaping @Sendable (Request, RequestContext) throws(ResponseError) -> Request.Response
    ) -> Route {
        Route(execution: execution) { (params, context) throws(ResponseError) -> Job in
            let request = try Request(params: params)
            return Job(orderingKey: (request as? any IndexScoped)?.index) { () throws(ResponseError) -> JSON in
                try handler(request, context).json
            }
        }
    }
}
