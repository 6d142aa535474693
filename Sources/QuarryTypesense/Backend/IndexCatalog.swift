import Dispatch
import QuarryJSON
import QuarrySync
import QuarrySearchContract

/// The cluster's indices, read from `quarry__meta` and kept for a moment:
/// every keystroke needs its index's settings and fields, but another daemon
/// may change them, so a cached copy is trusted for `maxAge` only and dropped
/// at once after this daemon's own changes.
///
/// A keystroke never waits for that read: past `maxAge`, a copy younger than
/// `staleLimit` still answers while one refresh runs on `refresher`, once the
/// searches in flight are answered (`RefreshGate`), so another daemon's change
/// shows from the next read after it lands; only a
/// missing or older copy is read on the caller's thread. A collection gone
/// meanwhile is caught where it is searched (`againIfRebuilt`).
final class IndexCatalog: Sendable {
    struct Snapshot: Sendable {
        var entries: [String: CatalogEntry]
        /// Replica name → primary name.
        var replicaOf: [String: String]
        var readAt: ContinuousClock.Instant
    }

    private let api: TypesenseAPI
    private let maxAge: Duration
    private let staleLimit: Duration
    /// The copy, and how many times it was dropped: a read that began before a drop is not kept.
    private let cache = Locked<(snapshot: Snapshot?, drops: Int)>((nil, 0))
    /// Concrete field names per physical collection (wildcard fields appear once a document holds them).
    private let fieldCache = Locked<(fields: [String: (names: Set<String>, readAt: ContinuousClock.Instant)], drops: Int)>(([:], 0))
    private let refresher = DispatchQueue(label: "quarry.typesense.catalog")
    /// When `refresher` may start.
    private let gate: RefreshGate
    /// What `refresher` is about to read again: "" for the catalogue, else a collection's name.
    private let refreshing = Locked<Set<String>>([])

    init(api: TypesenseAPI, gate: RefreshGate = RefreshGate(), maxAge: Duration = .seconds(1), staleLimit: Duration = .seconds(30)) {
        self.api = api
        self.gate = gate
        self.maxAge = maxAge
        self.staleLimit = staleLimit
    }

    /// Whether a copy read at `readAt` answers now, starting `refresh` off the caller's thread when
    /// it is past `maxAge` (once per `key` at a time).
    private func usable(readAt: ContinuousClock.Instant, key: String, refresh: @escaping @Sendable () -> Void) -> Bool {
        let age = ContinuousClock.now - readAt
        if age < maxAge { return true }
        guard age < staleLimit else { return false }
        if refreshing.withLock({ $0.insert(key).inserted }) {
            gate.whenIdle { [self] in
                refresher.async { [self] in
                    refresh()
                    refreshing.withLock { _ = $0.remove(key) }
                }
            }
        }
        return true
    }

    /// Creates the meta collection when the cluster has none (the first daemon on a new cluster).
    func prepare() throws(BackendError) {
        try call { () throws(TypesenseError) in
            guard try api.collection(FieldNames.metaCollection) == nil else { return }
            do throws(TypesenseError) {
                _ = try api.createCollection(CatalogEntry.metaSchema)
            } catch {
                // Another daemon may have created it in between.
                guard try api.collection(FieldNames.metaCollection) != nil else { throw error }
            }
        }
    }

    func snapshot() throws(BackendError) -> Snapshot {
        if let cached = cache.withLock({ $0.snapshot }),
           usable(readAt: cached.readAt, key: "", refresh: { [self] in _ = try? read() }) { return cached }
        return try read()
    }

    private func read() throws(BackendError) -> Snapshot {
        let started = ContinuousClock.now
        let drops = cache.withLock { $0.drops }
        let documents = try call { () throws(TypesenseError) in try api.exportDocuments(collection: FieldNames.metaCollection) }
        var entries: [String: CatalogEntry] = [:]
        var replicaOf: [String: String] = [:]
        for document in documents {
            guard let entry = CatalogEntry(document: document) else { continue }
            entries[entry.name] = entry
            for replica in entry.replicaNames { replicaOf[replica] = entry.name }
        }
        let fresh = Snapshot(entries: entries, replicaOf: replicaOf, readAt: started)
        cache.withLock { if $0.drops == drops { $0.snapshot = fresh } }
        return fresh
    }

    /// The primary entry for `name` and, when `name` is a replica, its name.
    func resolve(_ name: String) throws(BackendError) -> (entry: CatalogEntry, replica: String?) {
        let snapshot = try snapshot()
        if let entry = snapshot.entries[name] { return (entry, nil) }
        if let primary = snapshot.replicaOf[name], let entry = snapshot.entries[primary] { return (entry, name) }
        throw .indexNotFound(name)
    }

    func primary(ofReplica name: String) -> String? {
        (try? snapshot())?.replicaOf[name]
    }

    /// nil when the collection is gone.
    func fields(of collection: String) throws(BackendError) -> Set<String>? {
        if let cached = fieldCache.withLock({ $0.fields[collection] }),
           usable(readAt: cached.readAt, key: collection, refresh: { [self] in _ = try? readFields(of: collection) }) {
            return cached.names
        }
        return try readFields(of: collection)
    }

    private func readFields(of collection: String) throws(BackendError) -> Set<String>? {
        let started = ContinuousClock.now
        let drops = fieldCache.withLock { $0.drops }
        guard let schema = try call({ () throws(TypesenseError) in try api.collection(collection) }) else { return nil }
        guard case .array(let fields)? = schema["fields"] else {
            throw .storage("the cluster describes collection '\(collection)' without fields")
        }
        let names = Set(fields.compactMap { $0["name"]?.stringValue }.filter { !$0.contains("*") })
        fieldCache.withLock { if $0.drops == drops { $0.fields[collection] = (names, started) } }
        return names
    }

    func save(_ entry: CatalogEntry) throws(BackendError) {
        let result = try call { () throws(TypesenseError) in
            try api.importDocuments([entry.document], collection: FieldNames.metaCollection, action: .upsert)
        }
        invalidate()
        if let failure = result.failures.first { throw .storage("the cluster refused the settings of '\(entry.name)': \(failure.error)") }
    }

    func remove(_ name: String) throws(BackendError) {
        _ = try call { () throws(TypesenseError) in try api.deleteDocument(FieldNames.encode(name), collection: FieldNames.metaCollection) }
        invalidate()
    }

    /// After this daemon's own change.
    func invalidate() {
        cache.withLock { $0 = (nil, $0.drops + 1) }
    }

    /// After a document write, which may add fields to the collection.
    func invalidateFields(of collection: String? = nil) {
        fieldCache.withLock { cache in
            if let collection { cache.fields[collection] = nil } else { cache.fields = [:] }
            cache.drops += 1
        }
    }
}

/// Runs a cluster call, answering in the engine's errors.
func call<T>(_ body: () throws(TypesenseError) -> T) throws(BackendError) -> T {
    do {
        return try body()
    } catch {
        throw error.engineError
    }
}
