/// Timings of a `TypesenseCluster`; the defaults suit a cluster on a LAN.
public struct ClusterOptions: Sendable {
    /// After a write through this client, reads go to the leader for this long (seconds).
    /// Followers apply a write about 500 ms after the leader acknowledged it.
    public var readYourWritesWindow: Double = 2
    /// How long a write keeps retrying through a leader change before `.unavailable` (seconds).
    /// A killed leader is replaced in 7-10.5 s.
    public var writeRetryBound: Double = 25
    /// First pause between write retries; it doubles up to `maximumBackoff` (seconds).
    public var initialBackoff: Double = 0.05
    public var maximumBackoff: Double = 1
    /// A node that failed is tried after the others until this long has passed (seconds).
    public var failedNodeCooldown: Double = 2
    public var readTimeout: Double = 10
    public var writeTimeout: Double = 30
    /// For `GET /debug` and `GET /health` probes (seconds).
    public var probeTimeout: Double = 2

    public init() {}
}
