/// What one node was seen doing, for routing and for the text of `.unavailable`.
public enum NodeState: Sendable, Equatable, CustomStringConvertible {
    case unknown
    case leader
    case follower
    /// Up, but neither leader nor follower (electing, catching up, shutting down): its raft state.
    case notReady(String)
    /// No answer or an unusable one.
    case unreachable(String)

    /// From `GET /debug`'s `state`, braft's node state (1 leader, 4 follower).
    init(raftState: Int) {
        switch raftState {
        case 1: self = .leader
        case 4: self = .follower
        case 2: self = .notReady("transferring leadership")
        case 3: self = .notReady("candidate")
        default: self = .notReady("raft state \(raftState)")
        }
    }

    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .leader: "leader"
        case .follower: "follower"
        case .notReady(let why): "not ready (\(why))"
        case .unreachable(let why): "unreachable (\(why))"
        }
    }

    /// The name `health()` reports.
    var role: String {
        switch self {
        case .unknown: "unknown"
        case .leader: "leader"
        case .follower: "follower"
        case .notReady: "not ready"
        case .unreachable: "unreachable"
        }
    }
}
