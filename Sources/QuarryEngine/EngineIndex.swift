import Dispatch

/// One open index: its store (the write lock), the current search snapshot,
/// the readers that fetch hit records, and the derived file's persistence.
///
/// Writes take `store`'s lock for the whole transaction, so writes to one
/// index run one at a time. Searches take only `snapshot`'s lock, and only to
/// copy the reference, so they never wait for a write.
final class EngineIndex: Sendable {
    let name: String
    let folder: EngineIndexFolder
    let readers: RecordReaderPool
    /// `nil` once the index is closed or deleted.
    private let store: EngineLocked<IndexStore?>
    private let current: EngineLocked<EngineIndexSnapshot>
    private let persisted: EngineLocked<PersistState>

    private struct PersistState {
        var generation: UInt64?
        var scheduled = false
        var closed = false
    }

    /// Opens (or creates) the index in `folder`, loading the derived file when
    /// it matches the store and rebuilding it otherwise.
    init(name: String, folder: EngineIndexFolder, log: @Sendable (String) -> Void) throws(EngineError) {
        let store = try IndexStore(path: folder.databasePath, name: name, now: EngineTime.nowMS())
        let loaded = try EngineDerivedFile.load(store: store, path: folder.derivedPath, log: log)
        self.name = store.name
        self.folder = folder
        self.store = EngineLocked(store)
        current = EngineLocked(loaded.snapshot)
        persisted = EngineLocked(PersistState(generation: loaded.fromFile ? loaded.snapshot.generation : nil))
        readers = RecordReaderPool(path: folder.databasePath, indexName: store.name)
    }

    var snapshot: EngineIndexSnapshot { current.withLock { $0 } }

    /// Runs `body` in one store transaction; `body` returns its result and the
    /// search index for the new state. The snapshot is swapped after the commit.
    /// Returns nil when the index was closed or deleted meanwhile.
    func write<T>(
        _ body: (IndexStore, EngineIndexSnapshot) throws(EngineError) -> (T, SearchIndex)
    ) throws(EngineError) -> (result: T, generation: UInt64)? {
        try store.withLock { (store) throws(EngineError) -> (result: T, generation: UInt64)? in
            guard let store else { return nil }
            let before = snapshot
            let clock = ContinuousClock()
            let start = clock.now
            var built: SearchIndex?
            let result = try store.write(now: EngineTime.nowMS()) { () throws(EngineError) -> T in
                let (result, index) = try body(store, before)
                built = index
                return result
            }
            let elapsed = clock.now - start
            let next = EngineIndexSnapshot(
                index: built ?? before.index, settings: store.settings, generation: store.generation,
                buildMS: Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000),
                createdAt: store.createdAt, updatedAt: store.updatedAt)
            current.withLock { $0 = next }
            return (result, store.generation)
        }
    }

    /// Facts for listIndices, from the snapshot (never waits for a write).
    func summary() -> IndexSummary {
        let snapshot = self.snapshot
        let dataSize = folder.size(of: folder.databasePath) + folder.size(of: folder.databasePath + "-wal")
        return IndexSummary(
            name: name, entries: snapshot.index.documentCount, dataSize: dataSize,
            fileSize: dataSize + folder.size(of: folder.derivedPath), createdAt: snapshot.createdAt, updatedAt: snapshot.updatedAt,
            lastBuildTimeS: snapshot.buildMS / 1000, replicas: snapshot.settings.replicas.map(\.name))
    }

    // MARK: Derived file

    /// Persists the snapshot after `delay` seconds on `queue`, once per burst of writes.
    func schedulePersist(on queue: DispatchQueue, delay: Double, log: @escaping @Sendable (String) -> Void) {
        let shouldSchedule = persisted.withLock { state in
            defer { state.scheduled = true }
            return !state.scheduled && !state.closed
        }
        guard shouldSchedule else { return }
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in
            self?.persistNow(log: log)
        }
    }

    /// Writes the derived file if the snapshot is newer than the file. Runs on
    /// the engine's persistence queue only, so two writers never race.
    func persistNow(log: @Sendable (String) -> Void) {
        let snapshot = self.snapshot
        let due = persisted.withLock { state in
            state.scheduled = false
            return !state.closed && state.generation != snapshot.generation
        }
        guard due else { return }
        do {
            try EngineDerivedFile.write(snapshot, to: folder.derivedPath)
            persisted.withLock { $0.generation = snapshot.generation }
        } catch {
            log("index '\(name)': could not save the search index file (\(error)); it will be rebuilt on next open")
        }
    }

    /// Stops persistence and closes every connection. Call on the persistence
    /// queue (after a final `persistNow` when the index is kept).
    func close() {
        persisted.withLock { $0.closed = true }
        store.withLock { store in
            store?.close()
            store = nil
        }
        readers.close()
    }
}
