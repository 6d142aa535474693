import Dispatch
import QuarryJSON
import QuarrySync

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import QuarrySearchContract

/// The embedded engine over one data directory: which indices exist, what
/// they hold, and what a search over them finds.
///
/// Thread-safe. Writes to one index run one at a time, each as one SQLite
/// transaction, and are searchable when they return. Searches read an
/// immutable snapshot swapped in after each commit, so they never wait for a
/// write. One process owns a directory at a time (an flock on `<dir>/LOCK`).
public final class Engine: Sendable {
    public let directory: String
    let log: @Sendable (String) -> Void
    /// Seconds between a burst of writes and saving the derived search index file.
    let persistDelay: Double
    /// Merges, saves and record compaction, one at a time, at a lower priority than searches.
    let persistQueue = EnginePersistQueue(
        queue: DispatchQueue(label: "quarry.engine.persist"), thread: BackgroundThread(name: "quarry-persist"))
    private let directoryLock: EngineDirectoryLock
    let state = Locked(State())
    /// Serialises creating, deleting and closing indices and changing who is
    /// whose replica (never taken by searches or plain writes).
    let lifecycle = Lock()

    struct State {
        /// Primary indices (each owns a store) by name.
        var indices: [String: EngineIndex] = [:]
        /// Replica name → its primary's name.
        var replicaOf: [String: String] = [:]
        var closed = false
    }

    public convenience init(directory: String, log: @escaping @Sendable (String) -> Void) throws(BackendError) {
        try self.init(directory: directory, persistDelay: 1.0, log: log)
    }

    init(directory: String, persistDelay: Double, log: @escaping @Sendable (String) -> Void) throws(BackendError) {
        self.directory = directory
        self.log = log
        self.persistDelay = persistDelay
        try EngineIndexFolder.makeDirectories(EngineIndexFolder.indicesPath(directory))
        directoryLock = try EngineDirectoryLock(directory: directory)
        let indicesPath = EngineIndexFolder.indicesPath(directory)
        var opened: [String: EngineIndex] = [:]
        for folderName in EngineIndexFolder.list(dataDirectory: directory) {
            let folder = EngineIndexFolder(path: indicesPath + "/" + folderName)
            guard access(folder.databasePath, F_OK) == 0 else { continue }
            do {
                let index = try EngineIndex(name: folderName, folder: folder, log: log)
                if index.close(ifGenerationIs: 0) {
                    log("index folder '\(folderName)' held no committed write (an interrupted first write); removed")
                    try? folder.remove()
                    continue
                }
                opened[index.name] = index
                if index.views.primary.generation > 0 { index.schedulePersist(on: persistQueue, delay: persistDelay, log: log) }
            } catch {
                log("index folder '\(folderName)' could not be opened and is ignored: \(error)")
            }
        }
        EngineIndexFolder.removeLeftovers(dataDirectory: directory)
        state.withLock { $0.indices = opened }
        for index in opened.values { refreshReplicas(of: index) }
        warmUp(opened.values)
    }

    deinit { close() }

    /// Saves every derived file that is behind, closes the stores and releases
    /// the directory lock. Later calls throw `.storage("engine is closed")`.
    public func close() {
        lifecycle.withLock {
            let indices = state.withLock { state in
                defer { state.indices = [:]; state.closed = true }
                return Array(state.indices.values)
            }
            persistQueue.sync {
                for index in indices {
                    index.persistNow(serveFromFile: false, closing: true, log: log)
                    index.close()
                }
            }
            directoryLock.release()
        }
    }

    /// Every index, replicas included, by name.
    /// With `memory`, each summary carries its index's memory breakdown (which walks the facet values).
    public func listIndices(memory: Bool = false) -> [IndexSummary] {
        let indices = state.withLock { Array($0.indices.values) }
        return indices.flatMap { $0.summaries(memory: memory) }.sorted { $0.name < $1.name }
    }

    /// Deletes the index and its files; `false` when there was no such index.
    /// Deleting a primary deletes its replicas (they have no records of their
    /// own); deleting a replica removes it from its primary's `replicas`.
    @discardableResult
    public func deleteIndex(_ name: String) throws(BackendError) -> Bool {
        if let primary = state.withLock({ $0.replicaOf[name] }) {
            try detachReplica(name, from: primary)
            return true
        }
        return try lifecycle.withLock { () throws(BackendError) -> Bool in try removeIndexLocked(name) }
    }

    /// Removes a primary; the caller holds `lifecycle`.
    func removeIndexLocked(_ name: String) throws(BackendError) -> Bool {
        let removed = try state.withLock { (state) throws(BackendError) -> EngineIndex? in
            if state.closed { throw BackendError.storage("engine is closed") }
            let removed = state.indices.removeValue(forKey: name)
            state.replicaOf = state.replicaOf.filter { $0.value != name }
            return removed
        }
        guard let removed else { return false }
        persistQueue.sync { removed.close() }  // waits for a write in flight
        try removed.folder.remove()
        return true
    }

    /// Searches the index's current snapshot. Hit records are then read from
    /// SQLite by docID; in the instant between a commit and the snapshot swap
    /// they can already show that commit (a record it deleted reads as nil).
    public func search(
        index name: String, query: SearchQuery
    ) throws(BackendError) -> SearchResponse {
        let (index, replica) = try resolve(name)
        guard let snapshot = index.views.view(replica) else { throw .indexNotFound(name) }
        let parameters = try SearchParameters(query: query, settings: snapshot.settings)
        return try index.readers.withSource { (records) throws(BackendError) -> SearchResponse in
            try snapshot.index.search(parameters, records: records)
        }
    }


    // MARK: Index handles

    /// The store that answers for `name`, and which replica of it (nil: the primary).
    func resolve(_ name: String) throws(BackendError) -> (index: EngineIndex, replica: String?) {
        try state.withLock { (state) throws(BackendError) -> (index: EngineIndex, replica: String?) in
            if state.closed { throw BackendError.storage("engine is closed") }
            if let index = state.indices[name] { return (index, nil) }
            if let primary = state.replicaOf[name], let index = state.indices[primary] { return (index, name) }
            throw BackendError.indexNotFound(name)
        }
    }

    /// A primary index; a replica's name is an error that says to write to its primary.
    func existing(_ name: String) throws(BackendError) -> EngineIndex {
        let (index, replica) = try resolve(name)
        if replica != nil {
            throw .invalidParameter(
                name: "indexName", expected: "a primary index: '\(name)' is a replica of '\(index.name)', write to '\(index.name)'")
        }
        return index
    }

    /// The primary index, created empty when missing and `create` is set.
    /// `created` says whether this call created it.
    func writable(_ name: String, create: Bool, lifecycleHeld: Bool = false) throws(BackendError) -> (index: EngineIndex, created: Bool) {
        do throws(BackendError) {
            return (try existing(name), false)
        } catch .indexNotFound {
            // Missing: create it below, under the lifecycle lock.
        }
        let createLocked = { () throws(BackendError) -> (index: EngineIndex, created: Bool) in
            do throws(BackendError) {
                return (try self.existing(name), false)
            } catch .indexNotFound {
                guard create else { throw BackendError.indexNotFound(name) }
            }
            let folder = try EngineIndexFolder(dataDirectory: self.directory, name: name)
            try folder.create()
            let index = try EngineIndex(name: name, folder: folder, log: self.log)
            folder.syncDirectories()
            self.state.withLock { $0.indices[name] = index }
            return (index, true)
        }
        if lifecycleHeld { return try createLocked() }
        return try lifecycle.withLock { () throws(BackendError) in try createLocked() }
    }

    /// One write transaction on the primary `name`, retried on a fresh handle
    /// if the index was deleted while this call waited for it.
    func performWrite<T>(
        index name: String, create: Bool, lifecycleHeld: Bool = false,
        _ body: (IndexStore, EngineIndexViews) throws(BackendError) -> (T, EngineIndexChange)
    ) throws(BackendError) -> (result: T, generation: UInt64) {
        while true {
            let (index, created) = try writable(name, create: create, lifecycleHeld: lifecycleHeld)
            let outcome: (result: T, generation: UInt64)?
            do {
                outcome = try index.write(body)
            } catch {
                // A failed first write must not leave an empty index behind.
                if created { discard(name, ifGenerationIs: 0, lifecycleHeld: lifecycleHeld) }
                throw error
            }
            if let outcome {
                index.schedulePersist(on: persistQueue, delay: persistDelay, log: log)
                index.mergeSoon(on: persistQueue)
                return outcome
            }
        }
    }

    /// Removes the primary `name` if its store is still at `generation`: with 0,
    /// what a failed first write leaves; with a replica plan's generation, an
    /// index adopted as a replica. Kept (and `false`) if a write got in first.
    @discardableResult
    func discard(_ name: String, ifGenerationIs generation: UInt64, lifecycleHeld: Bool) -> Bool {
        let discard = { () -> Bool in
            guard let index = self.state.withLock({ $0.indices.removeValue(forKey: name) }) else { return false }
            guard index.close(ifGenerationIs: generation) else {
                self.state.withLock { $0.indices[name] = index }
                return false
            }
            self.persistQueue.sync { index.close() }
            try? index.folder.remove()
            return true
        }
        return lifecycleHeld ? discard() : lifecycle.withLock { discard() }
    }
}
