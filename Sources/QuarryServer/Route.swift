import QuarryJSON
import QuarryProtocol

/// A method's params decoding, its handler, and where it runs.
struct Route: Sendable {
    /// A request whose params were checked, ready to run where its route says.
    struct Job: Sendable {
        /// Writes with the same key run one at a time, in arrival order.
        let orderingKey: String?
        /// A second index a write touches (a copy's destination): it waits for both.
        var otherKey: String? = nil
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
            let scoped = request as? any IndexScoped
            return Job(orderingKey: scoped?.index, otherKey: scoped?.otherIndex) { () throws(ResponseError) -> JSON in
                try handler(request, context).json
            }
        }
    }
}
