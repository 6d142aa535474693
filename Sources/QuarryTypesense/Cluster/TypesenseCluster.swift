import Foundation
import QuarryJSON
import QuarrySync

/// A Typesense cluster seen as one service: which node answers a call, what
/// is retried, and when the cluster counts as unavailable.
///
/// Routing:
/// - Reads go round-robin over the nodes that answered recently; a node that
///   fails (no connection, 5xx, 503 "Not Ready or Lagging") is replaced by the
///   next one at once, and the read fails only when every node failed.
/// - Writes go to the leader (found with `GET /debug`, cached, found again
///   after a failure). A follower would forward them, but the leader is the
///   fast path and its failure is a clear signal. Failed writes are retried
///   with a short backoff until `writeRetryBound`; only idempotent ones are
///   retried when the failure may have happened after the node got the request.
/// - 4xx answers are never retried: they come back as `TypesenseError.http`.
///
/// Read-your-writes, and its limits: followers apply a write about 500 ms after
/// the leader acknowledged it. For `readYourWritesWindow` (2 s) after any write
/// through this object returns (or fails after the leader may have got it), reads
/// go to the leader. If the leader is unknown or unreachable then, the read
/// waits until the window has passed and goes to any node. So a read that
/// starts after a write through the same `TypesenseCluster` returned sees it,
/// provided followers catch up within the window. Writes made by other clients
/// are seen when the answering node has applied them.
public final class TypesenseCluster: Sendable {
    public let nodes: [TypesenseNode]
    public let options: ClusterOptions
    let apiKey: APIKey
    let transport: any HTTPTransport
    let state: Locked<RoutingState>
    /// Leader changes and nodes lost; never the key.
    let log: (@Sendable (String) -> Void)?

    struct RoutingState {
        var leader: Int?
        var nextRead = 0
        /// As last seen by a probe of `GET /debug`.
        var nodeStates: [NodeState]
        /// When each node last failed a call; nil once it answers again.
        var failedAt: [ContinuousClock.Instant?]
        var lastWrite: ContinuousClock.Instant?
        /// Writes noted so far: what a read cached before the last one is compared with.
        var writes = 0
        /// The leader last logged (`.some(nil)`: none), so that only changes are.
        var reportedLeader: Int??
    }

    /// `nodes` must not be empty; the API key is sent on every call and appears in no error or description.
    public init(nodes: [TypesenseNode], apiKey: String, options: ClusterOptions = ClusterOptions(),
                transport: any HTTPTransport = SocketTransport.shared, log: (@Sendable (String) -> Void)? = nil) {
        precondition(!nodes.isEmpty, "a Typesense cluster needs at least one node")
        self.nodes = nodes
        self.options = options
        self.apiKey = APIKey(value: apiKey)
        self.transport = transport
        self.log = log
        state = Locked(RoutingState(nodeStates: Array(repeating: .unknown, count: nodes.count),
                                    failedAt: Array(repeating: nil, count: nodes.count)))
    }

    /// Sends a call where its kind says and returns a success answer; any
    /// other outcome is thrown.
    public func send(_ request: TypesenseRequest) throws(TypesenseError) -> HTTPResponse {
        switch request.kind {
        case .read: try read(request)
        case .idempotentWrite, .write: try write(request)
        }
    }

    /// `send`, with the answer's body parsed as JSON.
    public func sendJSON(_ request: TypesenseRequest) throws(TypesenseError) -> JSON {
        let response = try send(request)
        do {
            return try JSONParser.parse(response.body)
        } catch {
            throw .invalidResponse("\(request.method.rawValue) \(request.path): \(error)")
        }
    }

    /// How many writes through this object returned, or failed after a node may have applied them.
    public var writesNoted: Int {
        state.withLock { $0.writes }
    }

    /// The leader as last discovered, nil when unknown.
    public var knownLeader: TypesenseNode? {
        state.withLock { $0.leader }.map { nodes[$0] }
    }

    // MARK: One attempt on one node

    enum Attempt {
        case answered(HTTPResponse)
        /// An answer that retrying cannot change.
        case rejected(TypesenseError)
        case failed(NodeFailure)
    }

    struct NodeFailure {
        var text: String
        /// The node certainly did not act on the request.
        var notApplied: Bool
    }

    /// What Typesense 0.24.1 answers, with HTTP 500, to a write that reached a node while no node leads.
    static let noLeader = "Could not find a leader."

    func attempt(_ request: TypesenseRequest, on node: Int, timeout: Double) -> Attempt {
        let http = HTTPRequest(
            method: request.method, baseURL: nodes[node].baseURL, target: request.target,
            // Typesense gzips its answers for a client that accepts it (libcurl, under URLSession, asks by
            // default): compressing on the node and inflating here cost a keystroke more than the bytes save.
            headers: ["X-TYPESENSE-API-KEY": apiKey.value, "Content-Type": request.contentType, "Accept-Encoding": "identity"],
            body: request.body, timeout: timeout)
        let response: HTTPResponse
        do {
            response = try transport.send(http)
        } catch {
            return .failed(NodeFailure(text: error.description, notApplied: error.requestNotSent))
        }
        switch response.status {
        case 200..<300:
            return .answered(response)
        case 503:
            return .failed(NodeFailure(text: "not ready (503 \(TypesenseError.http(response).messageText))", notApplied: true))
        case 401, 403:
            // Every node has the same key: another node cannot do better, and a retry cannot either.
            return .rejected(.unavailable("\(nodes[node]): refused the API key (HTTP \(response.status)); check --typesense-api-key-file"))
        case 500 where request.kind != .read && TypesenseError.http(response).messageText == Self.noLeader:
            // The node that got the write found no leader to forward it to, so nothing was applied: the
            // election is under way and a retry will find the new leader (protocol/backends.md).
            return .failed(NodeFailure(text: "no leader (500 \(Self.noLeader))", notApplied: true))
        case 500 where request.kind != .read && !response.body.isEmpty:
            // An empty 500 is what writes get while the cluster elects a leader; one with a message is an answer.
            return .rejected(TypesenseError.http(response))
        case 500..<600:
            return .failed(NodeFailure(text: "HTTP \(response.status)", notApplied: false))
        default:
            return .rejected(TypesenseError.http(response))
        }
    }

    func markAnswered(_ node: Int) {
        state.withLock { $0.failedAt[node] = nil }
    }

    func markFailed(_ node: Int) {
        let now = ContinuousClock.now
        state.withLock { $0.failedAt[node] = now }
    }

    static func sleep(seconds: Double) {
        if seconds > 0 { Thread.sleep(forTimeInterval: seconds) }
    }
}

extension TypesenseError {
    var messageText: String {
        switch self {
        case .http(_, let message): message
        case .unavailable(let text), .invalidResponse(let text): text
        }
    }
}
