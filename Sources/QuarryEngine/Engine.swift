import Dispatch
import QuarryJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    let persistQueue = DispatchQueue(label: "quarry.engine.persist")
    private let directoryLock: EngineDirectoryLock
    private let state = EngineLocked(State())
    /// Serialises creating, deleting and closing indices (never taken by searches).
    private let lifecycle = EngineLocked(())

    private struct State {
        var indices: [String: EngineIndex] = [:]
        var closed = false
    }

    public convenience init(directory: String, log: @escaping @Sendable (String) -> Void) throws(EngineError) {
        try self.init(directory: directory, persistDelay: 1.0, log: log)
    }

    init(directory: String, persistDelay: Double, log: @escaping @Sendable (String) -> Void) throws(EngineError) {
        self.directory = directory
        self.log = log
        self.persistDelay = persistDelay
        for path in [directory, EngineIndexFolder.indicesPath(directory)] where mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw .storage("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        directoryLock = try EngineDirectoryLock(directory: directory)
        let indicesPath = EngineIndexFolder.indicesPath(directory)
        var opened: [String: EngineIndex] = [:]
        for folderName in EngineIndexFolder.list(dataDirectory: directory) {
            let folder = EngineIndexFolder(path: indicesPath + "/" + folderName)
            guard access(folder.databasePath, F_OK) == 0 else { continue }
            do {
                let index = try EngineIndex(name: folderName, folder: folder, log: log)
                opened[index.name] = index
                if index.snapshot.generation > 0 { index.schedulePersist(on: persistQueue, delay: persistDelay, log: log) }
            } catch {
                log("index folder '\(folderName)' could not be opened and is ignored: \(error)")
            }
        }
        EngineIndexFolder.removeLeftovers(dataDirectory: directory)
        state.withLock { $0.indices = opened }
    }

    deinit { close() }

    /// Saves every derived file that is behind, closes the stores and releases
    /// the directory lock. Later calls throw `.storage("engine is closed")`.
    public func close() {
        lifecycle.withLock { _ in
            let indices = state.withLock { state in
                defer { state.indices = [:]; state.closed = true }
                return Array(state.indices.values)
            }
            persistQueue.sync {
                for index in indices {
                    index.persistNow(log: log)
                    index.close()
                }
            }
            directoryLock.release()
        }
    }

    public func listIndices() -> [IndexSummary] {
        let indices = state.withLock { Array($0.indices.values) }
        return indices.map { $0.summary() }.sorted { $0.name < $1.name }
    }

    /// Deletes the index and its files; `false` when there was no such index.
    @discardableResult
    public func deleteIndex(_ name: String) throws(EngineError) -> Bool {
        try lifecycle.withLock { (_) throws(EngineError) -> Bool in
            let removed = try state.withLock { (state) throws(EngineError) -> EngineIndex? in
                if state.closed { throw EngineError.storage("engine is closed") }
                return state.indices.removeValue(forKey: name)
            }
            guard let removed else { return false }
            persistQueue.sync { removed.close() }  // waits for a write in flight
            try removed.folder.remove()
            return true
        }
    }

    public func search(
        index name: String, parameters: JSONObject, positionEncoding: PositionEncoding = .utf16
    ) throws(EngineError) -> JSON {
        let index = try existing(name)
        let snapshot = index.snapshot
        let parameters = try SearchParameters(json: parameters, settings: snapshot.settings, positionEncoding: positionEncoding)
        return try index.readers.withSource { (records) throws(EngineError) -> JSON in
            try snapshot.index.search(parameters, records: records).json()
        }
    }

    // MARK: Index handles

    func existing(_ name: String) throws(EngineError) -> EngineIndex {
        try state.withLock { (state) throws(EngineError) -> EngineIndex in
            if state.closed { throw EngineError.storage("engine is closed") }
            guard let index = state.indices[name] else { throw EngineError.indexNotFound(name) }
            return index
        }
    }

    /// The index, created empty when missing and `create` is set.
    /// `created` says whether this call created it.
    func writable(_ name: String, create: Bool) throws(EngineError) -> (index: EngineIndex, created: Bool) {
        if let index = try? existing(name) { return (index, false) }
        return try lifecycle.withLock { (_) throws(EngineError) -> (index: EngineIndex, created: Bool) in
            if let index = try? existing(name) { return (index, false) }
            if state.withLock({ $0.closed }) { throw EngineError.storage("engine is closed") }
            guard create else { throw EngineError.indexNotFound(name) }
            let folder = try EngineIndexFolder(dataDirectory: directory, name: name)
            try folder.create()
            let index = try EngineIndex(name: name, folder: folder, log: log)
            state.withLock { $0.indices[name] = index }
            return (index, true)
        }
    }

    /// One write transaction on `name`, retried on a fresh handle if the index
    /// was deleted while this call waited for it.
    func performWrite<T>(
        index name: String, create: Bool,
        _ body: (IndexStore, EngineIndexSnapshot) throws(EngineError) -> (T, SearchIndex)
    ) throws(EngineError) -> (result: T, generation: UInt64) {
        while true {
            let index = try writable(name, create: create).index
            if let outcome = try index.write(body) {
                index.schedulePersist(on: persistQueue, delay: persistDelay, log: log)
                return outcome
            }
        }
    }
}
