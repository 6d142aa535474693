import QuarryJSON

/// The Typesense endpoints the backend uses, as typed calls over a
/// `TypesenseCluster`. Each call's routing kind is fixed here: reads go to
/// any node, writes to the leader, and the doc comment of every write says
/// whether it is idempotent (retried through a leader change) or not.
///
/// A missing collection, alias or document gives `nil`/`false` where the call
/// returns one, else `TypesenseError.http(404, …)`; callers map it to
/// `.indexNotFound` when the name was an index's.
public struct TypesenseAPI: Sendable {
    public let cluster: TypesenseCluster

    public init(cluster: TypesenseCluster) {
        self.cluster = cluster
    }

    func object(_ request: TypesenseRequest) throws(TypesenseError) -> JSONObject {
        let json = try cluster.sendJSON(request)
        guard let object = json.objectValue else {
            throw .invalidResponse("\(request.path): expected an object, got \(json.kindName)")
        }
        return object
    }

    /// `object`, with a 404 as nil.
    func objectIfFound(_ request: TypesenseRequest) throws(TypesenseError) -> JSONObject? {
        do {
            return try object(request)
        } catch where error.isNotFound {
            return nil
        }
    }

    /// Sends, and reports whether the target existed (false on a 404).
    func existed(_ request: TypesenseRequest) throws(TypesenseError) -> Bool {
        do {
            _ = try cluster.send(request)
            return true
        } catch where error.isNotFound {
            return false
        }
    }

    static func body(_ value: JSON) -> [UInt8] {
        JSONWriter.encode(value)
    }
}
