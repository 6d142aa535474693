/// The MCP revisions `quarry mcp` speaks, and how `initialize` picks one
/// (protocol/mcp.md, "Lifecycle").
public enum ProtocolVersion {
    /// Oldest first. Tool `outputSchema` and `structuredContent` arrived in
    /// 2025-06-18, so older revisions are not offered.
    public static let supported = ["2025-06-18", "2025-11-25"]

    public static var latest: String { supported[supported.count - 1] }

    /// The client's version when supported, else the newest this server knows:
    /// the client then decides whether it can go on.
    public static func negotiate(requested: String) -> String {
        supported.contains(requested) ? requested : latest
    }
}
