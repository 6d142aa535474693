import OrderedCollections
import QuarryJSON
import QuarrySearchContract
import QuarrySync

/// The search index of every view (the primary and each replica), built
/// from the records an import stores, while it stores them: each record is
/// parsed once, and each view's build runs on a thread of its own
/// (`BackgroundIndexBuild`) beside the import's.
///
/// Into an empty index the builds are the views. Into a non-empty one (whose
/// settings the import leaves alone) each build is one more segment of its
/// view, and the records it replaces are marked deleted in the older ones
/// (`SearchIndex.appending`), as a write of the same records would do.
///
/// The builds take each docID once. New rows get docIDs above every stored
/// one, in increasing order, so a docID is handed over when it is above the
/// last new one or, at most once, when it was stored before the import (a
/// replaced record). Any other is a record repeated in the file (or one
/// SQLite placed out of order): those are kept aside, the last of each docID
/// winning, and applied at the end with `SearchIndex.updating`, the engine's
/// exact update path. Past `repeatLimit` of them the builds are given up and
/// the views are rebuilt from the store instead, as before, so memory stays
/// bounded whatever the file.
///
/// A write's batch takes another way in (`init(store:before:ahead:)`): its
/// records are given to the builds before the store holds them, so that they
/// are tokenised while the writer stores them rather than as each is stored,
/// and their docIDs follow (`assign(_:)`).
///
/// Used by one thread at a time. The owner calls `abandon()`, or `endInput()`
/// and then one of the `Ending`'s `join()` or `abandon()`.
final class EngineImportBuild {
    static let batchSize = 256
    static let repeatLimit = 20_000

    /// What the builds made: each view's index, with the settings it was built with.
    struct Views {
        var primary: SearchIndex
        var replicas: [String: SearchIndex]
    }

    private var primary: BackgroundIndexBuild?
    private var replicas: [(name: String, build: BackgroundIndexBuild)]
    /// Each view's index before the import; nil for an empty index.
    private let bases: Views?
    /// The largest docID stored before the import.
    private let storedMax: Int64
    private var newest: Int64
    /// DocIDs stored before the import and handed over since.
    private var replaced: Set<DocID> = []
    private var batch: [(DocID, JSONObject)] = []
    private var batchSizes = ChunkSizes(limit: batchSize)
    private var repeated: OrderedDictionary<DocID, JSONObject> = [:]
    /// Records taken, for the engine's save policy (`EngineSavePolicy`).
    private(set) var added = 0

    /// Starts one build per view of `store`, with the settings each has now, on top of `before` unless
    /// the store is empty. Nil when a view of `before` was built with other settings than the store's
    /// (the import changed them): only a rebuild from the store is right then.
    convenience init?(store: IndexStore, before: EngineIndexViews) throws(BackendError) {
        try self.init(store: store, before: before, records: nil)
    }

    /// Starts the builds as `init(store:before:)` does, each given `records` whole at once, whose
    /// objectIDs must be distinct: the owner then calls `assign(_:)` with their docIDs, not `add`.
    convenience init?(store: IndexStore, before: EngineIndexViews, ahead records: [JSONObject]) throws(BackendError) {
        try self.init(store: store, before: before, records: records)
    }

    private init?(store: IndexStore, before: EngineIndexViews, records: [JSONObject]?) throws(BackendError) {
        storedMax = try store.maxDocID()
        newest = storedMax
        if storedMax == 0 {
            bases = nil
        } else {
            func base(_ replica: String?, _ settings: IndexSettings) -> SearchIndex? {
                guard let view = before.view(replica), view.settings == settings, view.index.settings == settings
                else { return nil }
                return view.index
            }
            guard let primary = base(nil, store.settings) else { return nil }
            var bases = Views(primary: primary, replicas: [:])
            for replica in store.settings.replicas.map(\.name) {
                guard let index = base(replica, store.effectiveSettings(replica: replica)) else { return nil }
                bases.replicas[replica] = index
            }
            self.bases = bases
        }
        func start(_ settings: IndexSettings) -> BackgroundIndexBuild {
            guard let records else { return BackgroundIndexBuild(settings: settings, spillDirectory: store.directory) }
            return BackgroundIndexBuild(settings: settings, records: records, spillDirectory: store.directory)
        }
        primary = start(store.settings)
        replicas = store.settings.replicas.map { ($0.name, start(store.effectiveSettings(replica: $0.name))) }
        batch.reserveCapacity(batchSizes.current)
    }

    /// False once the builds were given up: the views must be rebuilt from the store.
    var isBuilding: Bool { primary != nil }

    /// Takes the record the store now holds under `docID`.
    func add(docID: DocID, record: JSONObject) {
        added += 1
        guard isBuilding else { return }
        let id = Int64(docID)
        if id > newest || (id <= storedMax && replaced.insert(docID).inserted) {
            if id > newest { newest = id }
            batch.append((docID, record))
            if batch.count == batchSizes.current { handOver() }
        } else {
            repeated[docID] = record
            if repeated.count > Self.repeatLimit { abandon() }
        }
    }

    /// The docIDs the store gave the records given at the start (`init(store:before:ahead:)`), in their order.
    func assign(_ docIDs: [DocID]) {
        added += docIDs.count
        for id in docIDs where Int64(id) <= storedMax { replaced.insert(id) }
        primary?.assign(docIDs)
        for replica in replicas { replica.build.assign(docIDs) }
    }

    /// Hands over the last records and lets the builds finish without waiting for them; nil if they were
    /// given up. What they build is then the returned value's alone.
    func endInput() -> Ending? {
        handOver()
        guard let primary else { return nil }
        primary.endInput()
        for replica in replicas { replica.build.endInput() }
        let ending = Ending(
            primary: primary, replicas: replicas, bases: bases, replaced: replaced,
            repeated: repeated.map { ($0.key, $0.value) })
        self.primary = nil
        replicas = []
        replaced = []
        repeated = [:]
        return ending
    }

    /// Builds whose input ended: join them, or abandon them if what they build is no longer wanted.
    struct Ending {
        fileprivate let primary: BackgroundIndexBuild
        fileprivate let replicas: [(name: String, build: BackgroundIndexBuild)]
        fileprivate let bases: Views?
        fileprivate let replaced: Set<DocID>
        fileprivate let repeated: [(DocID, JSONObject)]

        /// Waits for every build, puts each on top of its view's index before the import (if any), then
        /// applies the repeated records.
        func join() -> Views {
            func finished(_ build: BackgroundIndexBuild, base: SearchIndex?) -> SearchIndex {
                var index = build.finish()
                if let base { index = base.appending(index, replacing: replaced) }
                return repeated.isEmpty ? index : index.updating(upserts: repeated, deletions: [])
            }
            var views = Views(primary: finished(primary, base: bases?.primary), replicas: [:])
            for (name, build) in replicas { views.replicas[name] = finished(build, base: bases?.replicas[name]) }
            return views
        }

        func abandon() {
            primary.abandon()
            for replica in replicas { replica.build.abandon() }
        }
    }

    /// Stops every build without waiting for it (the import failed, or repeated too many records).
    func abandon() {
        primary?.abandon()
        for replica in replicas { replica.build.abandon() }
        primary = nil
        replicas = []
        batch = []
        replaced = []
        repeated = [:]
    }

    private func handOver() {
        guard !batch.isEmpty else { return }
        primary?.add(batch)
        for replica in replicas { replica.build.add(batch) }
        batch = []
        batchSizes.advance()
        batch.reserveCapacity(batchSizes.current)
    }
}
