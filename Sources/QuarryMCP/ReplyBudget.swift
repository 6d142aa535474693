import QuarryJSON

/// How many bytes a tool result may take, and how a list of hits is cut to fit
/// (protocol/mcp.md, "Bounded replies"): an agent's context is not flooded by one call.
public struct ReplyBudget: Sendable {
    /// The documented bound on a whole `tools/call` result, as UTF-8 JSON.
    public static let defaultResultBytes = 24_000
    /// Kept for the envelope (`content`, `isError`) and the short text summary.
    static let envelopeBytes = 2_400

    public var resultBytes: Int

    public init(resultBytes: Int = ReplyBudget.defaultResultBytes) {
        self.resultBytes = resultBytes
    }

    /// What `structuredContent` may take.
    public var structuredBytes: Int { max(resultBytes - Self.envelopeBytes, 1_000) }

    /// The bytes of one of `parts` equal shares of `structuredBytes` (a query of a multi_search).
    public func split(_ parts: Int) -> Int { structuredBytes / max(parts, 1) }

    /// The leading items of `items` whose JSON fits in `bytes` beside `base`
    /// (the reply without them), and how many were left out.
    public static func fit(_ items: [JSON], beside base: JSON, within bytes: Int) -> (kept: [JSON], omitted: Int) {
        // The note and the counts that say what was left out take about this much.
        var used = JSONWriter.encode(base).count + 400
        var kept: [JSON] = []
        for item in items {
            let size = JSONWriter.encode(item).count + 1
            guard used + size <= bytes else { break }
            used += size
            kept.append(item)
        }
        return (kept, items.count - kept.count)
    }

    /// Keeps the first `limit` values of each attribute's counts (already
    /// ordered best first), so facets cannot take the hits' share.
    public static func capFacets(_ facets: JSON?, values limit: Int) -> JSON? {
        guard case .object(let attributes)? = facets else { return nil }
        var capped = JSONObject()
        for (attribute, counts) in attributes {
            switch counts {
            case .object(let values): capped[attribute] = .object(JSONObject(uniqueKeysWithValues: values.prefix(limit).map { ($0.key, $0.value) }))
            case .array(let values): capped[attribute] = .array(Array(values.prefix(limit)))
            default: capped[attribute] = counts
            }
        }
        return .object(capped)
    }
}
