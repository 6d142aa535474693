#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import QuarrySearchContract

/// The search index saved beside the store, so opening an index does not
/// rebuild it. It is only a cache: valid when its generation equals the
/// store's, and rebuilt from SQLite (with one log line saying why) otherwise.
enum EngineDerivedFile {
    static func load(
        store: IndexStore, settings: IndexSettings, path: String, label: String, log: (String) -> Void
    ) throws(BackendError) -> (snapshot: EngineIndexSnapshot, fromFile: Bool) {
        func snapshot(_ index: SearchIndex, buildMS: Int) -> EngineIndexSnapshot {
            EngineIndexSnapshot(
                index: index, settings: settings, generation: store.generation, buildMS: buildMS,
                createdAt: store.createdAt, updatedAt: store.updatedAt)
        }
        let reason: String
        if access(path, F_OK) != 0 {
            reason = "missing"
        } else {
            do {
                let (index, generation) = try SearchIndex.read(from: path, settings: settings)
                if generation == store.generation { return (snapshot(index, buildMS: 0), true) }
                reason = "stale (file generation \(generation), store generation \(store.generation))"
            } catch {
                reason = "unreadable (\(error))"
            }
        }
        let clock = ContinuousClock()
        let start = clock.now
        let index = try build(store: store, settings: settings)
        let elapsed = clock.now - start
        let ms = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        // A brand-new index has nothing to rebuild and nothing worth saying.
        if !(store.generation == 0 && reason == "missing") {
            log("\(label): search index file \(reason); rebuilt from \(index.documentCount) records in \(ms) ms")
        }
        return (snapshot(index, buildMS: ms), false)
    }

    /// Builds a search index from every stored record, streaming.
    static func build(store: IndexStore, settings: IndexSettings) throws(BackendError) -> SearchIndex {
        let records = try store.allRecords()
        let index = SearchIndex.build(settings: settings, uniqueRecords: records, spillDirectory: store.directory)
        if let failure = records.failure { throw failure }
        return index
    }

    /// Writes to a temporary name then renames, so a crash never leaves a torn
    /// file under the real name (and a stale one is caught by its generation).
    /// The arrays written go on `shelf`, for the file's read-back.
    static func write(_ snapshot: EngineIndexSnapshot, to path: String, shelf: ArrayShelf? = nil) throws {
        let temporary = path + ".tmp"
        try snapshot.index.write(to: temporary, generation: snapshot.generation, shelf: shelf)
        guard rename(temporary, path) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temporary)
            throw BackendError.storage("cannot rename \(temporary): \(message)")
        }
    }
}
