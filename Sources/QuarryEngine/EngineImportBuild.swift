import OrderedCollections
import QuarryJSON

/// The search index of every view (the primary and each replica), built
/// from the records an import into an empty index stores, while it stores
/// them: each record is parsed once, and each view's build runs on a thread
/// of its own (`BackgroundIndexBuild`) beside the import's.
///
/// The builds take each docID once. In an empty store the docIDs of new rows
/// only grow, so a docID not above the last one handed over is a record
/// repeated in the file (or one SQLite placed out of order): such records are
/// kept aside, the last of each docID winning, and applied at the end with
/// `SearchIndex.updating`, the engine's exact update path. Past
/// `repeatLimit` of them the builds are given up and the views are rebuilt
/// from the store instead, as before, so memory stays bounded whatever the file.
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
    private var batch: [(DocID, JSONObject)] = []
    private var newest: Int64 = -1
    private var repeated: OrderedDictionary<DocID, JSONObject> = [:]

    /// Starts one build per view of `store`, with the settings each has now.
    init(store: IndexStore) {
        primary = BackgroundIndexBuild(settings: store.settings)
        replicas = store.settings.replicas.map {
            ($0.name, BackgroundIndexBuild(settings: store.effectiveSettings(replica: $0.name)))
        }
        batch.reserveCapacity(Self.batchSize)
    }

    /// False once the builds were given up: the views must be rebuilt from the store.
    var isBuilding: Bool { primary != nil }

    /// Takes the record the store now holds under `docID`.
    func add(docID: DocID, record: JSONObject) {
        guard isBuilding else { return }
        if Int64(docID) > newest {
            newest = Int64(docID)
            batch.append((docID, record))
            if batch.count == Self.batchSize { handOver() }
        } else {
            repeated[docID] = record
            if repeated.count > Self.repeatLimit { abandon() }
        }
    }

    /// Hands over the last records and lets the builds finish without waiting for them; nil if they were
    /// given up. What they build is then the returned value's alone.
    func endInput() -> Ending? {
        handOver()
        guard let primary else { return nil }
        primary.endInput()
        for replica in replicas { replica.build.endInput() }
        let ending = Ending(primary: primary, replicas: replicas, repeated: repeated.map { ($0.key, $0.value) })
        self.primary = nil
        replicas = []
        repeated = [:]
        return ending
    }

    /// Builds whose input ended: join them, or abandon them if what they build is no longer wanted.
    struct Ending {
        fileprivate let primary: BackgroundIndexBuild
        fileprivate let replicas: [(name: String, build: BackgroundIndexBuild)]
        fileprivate let repeated: [(DocID, JSONObject)]

        /// Waits for every build, then applies the repeated records.
        func join() -> Views {
            func finished(_ build: BackgroundIndexBuild) -> SearchIndex {
                let index = build.finish()
                return repeated.isEmpty ? index : index.updating(upserts: repeated, deletions: [])
            }
            var views = Views(primary: finished(primary), replicas: [:])
            for (name, build) in replicas { views.replicas[name] = finished(build) }
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
        repeated = [:]
    }

    private func handOver() {
        guard !batch.isEmpty else { return }
        primary?.add(batch)
        for replica in replicas { replica.build.add(batch) }
        batch = []
        batch.reserveCapacity(Self.batchSize)
    }
}
