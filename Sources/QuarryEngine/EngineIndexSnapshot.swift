import QuarrySearchContract

/// What a search reads: one immutable search index with the settings and
/// store generation it was built for. Swapped whole, never mutated.
struct EngineIndexSnapshot: Sendable {
    var index: SearchIndex
    var settings: IndexSettings
    var generation: UInt64
    /// How long the last full build or incremental update took.
    var buildMS: Int
    /// Milliseconds since 1970, from the store, so listIndices never waits for a write.
    var createdAt: Int64
    var updatedAt: Int64
}
