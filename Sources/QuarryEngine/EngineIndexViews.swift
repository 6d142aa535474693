import QuarryJSON
import QuarrySearchContract

/// What a write did to the records, so every view of them can follow.
enum EngineIndexChange {
    case update(upserts: [(DocID, JSONObject)], deletions: [DocID])
    /// Rebuild from the store: every view (nil) or one replica's.
    case rebuild(only: String?)
    /// Every view's index is being built from the records written (`EngineImportBuild`), unless the
    /// builds were given up: then every view is rebuilt from the store.
    case building(EngineImportBuild)

    /// How many documents the change writes (added, replaced or deleted); nil for every one of them.
    var documentsWritten: Int? {
        switch self {
        case .update(let upserts, let deletions): upserts.count + deletions.count
        case .rebuild: nil
        case .building(let build): build.added
        }
    }
}

/// The searchable views of one store: the primary index and its replicas, each
/// a snapshot with its own settings and search index, all at one generation.
/// Replaced whole after each commit.
struct EngineIndexViews: Sendable {
    var primary: EngineIndexSnapshot
    var replicas: [String: EngineIndexSnapshot]

    /// The primary for nil, else the named replica.
    func view(_ replica: String?) -> EngineIndexSnapshot? {
        guard let replica else { return primary }
        return replicas[replica]
    }

    /// Every view's key for `view(_:)`: nil for the primary, then each replica's name.
    var keys: [String?] { [nil] + replicas.keys.map { $0 } }

    /// Gives the primary (nil) or the named replica's view `index` (its merged, settled or read-back
    /// segments), keeping the rest of the view; nothing when there is no such view.
    mutating func replaceIndex(of replica: String?, with index: SearchIndex) {
        guard var updated = view(replica) else { return }
        updated.index = index
        if let replica { replicas[replica] = updated } else { primary = updated }
    }

    /// The views after `change`, built while the transaction is still open
    /// so that the swap can follow the commit at once.
    func applying(_ change: EngineIndexChange, store: IndexStore, buildMS: Int) throws(BackendError) -> EngineIndexViews {
        // Builds given up are replaced by a rebuild from the store (the `default` below).
        if case .building(let build) = change, let ending = build.endInput() {
            return EngineIndexViews(built: ending.join(), store: store)
        }
        func next(_ before: EngineIndexSnapshot?, settings: IndexSettings, replica: String?) throws(BackendError) -> EngineIndexSnapshot {
            let index: SearchIndex
            switch change {
            case .update(let upserts, let deletions) where before != nil:
                index = before.map { $0.index.updating(upserts: upserts, deletions: deletions) }
                    ?? SearchIndex.build(settings: settings, records: EmptyCollection())
            case .rebuild(let only) where before != nil && only != nil && only != replica:
                index = before.map(\.index) ?? SearchIndex.build(settings: settings, records: EmptyCollection())
            default:
                index = try EngineDerivedFile.build(store: store, settings: settings)
            }
            return EngineIndexSnapshot(
                index: index, settings: settings, generation: store.generation, buildMS: buildMS,
                createdAt: store.createdAt, updatedAt: store.updatedAt)
        }
        var result = EngineIndexViews(primary: try next(primary, settings: store.settings, replica: nil), replicas: [:])
        for replica in store.settings.replicas {
            result.replicas[replica.name] = try next(
                replicas[replica.name], settings: store.effectiveSettings(replica: replica.name), replica: replica.name)
        }
        return result
    }
}

extension EngineIndexViews {
    /// The views `EngineImportBuild` built, each with the settings it was built with: the store's, taken
    /// in the same transaction.
    init(built: EngineImportBuild.Views, store: IndexStore) {
        func snapshot(_ index: SearchIndex) -> EngineIndexSnapshot {
            EngineIndexSnapshot(
                index: index, settings: index.settings, generation: store.generation, buildMS: 0,
                createdAt: store.createdAt, updatedAt: store.updatedAt)
        }
        self.init(primary: snapshot(built.primary), replicas: built.replicas.mapValues(snapshot))
    }
}
