/// When a view's search index file is written while writes keep coming (the policy is in ARCHITECTURE.md,
/// "Saving the search index files").
///
/// A save rewrites and reads back (checksum included) the whole file, so under a stream of batches a save
/// after each burst would cost CPU in proportion to the index for every second of the stream, taken from the
/// writer and from searches. The file is only a cache of what SQLite holds (a file behind is rebuilt on
/// open), so while writes keep coming it is written only when a bound is crossed: the documents written
/// since the last save reach the documents it saved (so a stream rewrites each document a bounded number of
/// times, as a doubling array copies each element), or the oldest unsaved write is `maximumSeconds` old (or
/// ten saves' time, for very large indices). Once writes pause for the engine's delay, the file is saved as
/// before.
struct EngineSavePolicy: Sendable {
    /// Seconds with no write after which writes are over and the file is saved (the engine's persist delay).
    var quietSeconds: Double
    /// Under a stream, at least this many documents written since the last save before a save.
    var minimumDocuments = 50_000
    /// Under a stream, the oldest unsaved write is at most this old (or ten saves' time) at a save.
    var maximumSeconds = 60.0

    /// What a save is decided on: the writes since the last save.
    struct Unsaved: Sendable {
        /// Seconds since the last write, and since the first write the file does not hold.
        var sinceLastWrite: Double
        var sinceFirstWrite: Double
        /// Documents written (added, replaced or deleted) since the last save, and held by the last save.
        var documents: Int
        var savedDocuments: Int
        /// How long the last save took.
        var lastSaveSeconds: Double
    }

    /// True when the file should be written now; false when the save is put off because writes keep coming.
    func shouldSave(_ unsaved: Unsaved) -> Bool {
        if unsaved.sinceLastWrite >= quietSeconds { return true }
        if unsaved.documents >= max(minimumDocuments, unsaved.savedDocuments) { return true }
        return unsaved.sinceFirstWrite >= max(maximumSeconds, 10 * unsaved.lastSaveSeconds)
    }
}
