import QuarryJSON
import QuarrySearchContract

/// Relevant sort on virtual replicas (protocol/sessions.md, "Relevant sort"): the toggle and the texts
/// frontends show.
public enum RelevantSort {
    /// `relevancy` while some hits are left out (strictness > 0), `hitsCount` when all are shown.
    public static func json(appliedStrictness: Int) -> JSON {
        appliedStrictness > 0
            ? ["priority": "relevancy",
               "hint": "We removed some search results to show you the most relevant ones.",
               "toggleTitle": "Show all results"]
            : ["priority": "hitsCount",
               "hint": "Currently showing all results.",
               "toggleTitle": "Show more relevant results"]
    }

    /// The searcher's strictness after a toggle: from relevancy to 0 (all
    /// hits); back to the index's default (nil), or 100 when that default is 0.
    public static func toggled(_ override: Int?, indexDefault: Int) -> Int? {
        let applied = override ?? indexDefault
        if applied > 0 { return 0 }
        return indexDefault > 0 ? nil : 100
    }

    /// Whether `index` is a virtual replica, from its settings and its primary's:
    /// the primary lists it as `virtual(index)`. Returns its default strictness, or nil.
    public static func virtualReplicaDefault(index: String, backend: any SearchBackend) throws(SessionError) -> Int? {
        let settings = try backend.settings(index: index)
        guard let primary = settings.primary else { return nil }
        let replicas = try backend.settings(index: primary).replicas
        guard replicas.contains(ReplicaReference(name: index, isVirtual: true)) else { return nil }
        return settings.relevancyStrictness
    }
}
