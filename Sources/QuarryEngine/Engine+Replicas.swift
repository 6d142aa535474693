import QuarryJSON
import QuarrySearchContract

/// Replicas: other orderings of a primary's records. A replica has no store of
/// its own: it is a view of its primary's store with its own settings (the
/// keys set on it, over the primary's) and its own search index, updated in
/// the same transaction as the primary, so both always show one generation.
extension Engine {
    /// The primary whose records `name` shows, when `name` is a replica.
    public func primary(ofReplica name: String) -> String? {
        state.withLock { $0.replicaOf[name] }
    }

    static func declaresReplicas(_ json: JSONObject) -> Bool {
        json["replicas"] != nil || json["slaves"] != nil
    }

    /// What declaring `json`'s replicas on `primary` needs; the caller holds `lifecycle`.
    func replicaPlan(primary: String, settings json: JSONObject) throws(BackendError) -> EngineReplicaPlan {
        var probe = IndexSettings()
        try probe.merge(json)
        var plan = EngineReplicaPlan()
        for replica in probe.replicas.map(\.name) {
            let key = json["replicas"] != nil ? "replicas" : "slaves"
            guard replica != primary else { throw .invalidSetting(name: key, expected: "names other than the index's own") }
            let (owner, existing) = state.withLock { ($0.replicaOf[replica], $0.indices[replica]) }
            if let owner, owner != primary {
                throw .invalidSetting(name: key, expected: "indices that are not replicas of another index ('\(replica)' is one of '\(owner)')")
            }
            guard let existing else { continue }
            guard existing.views.primary.index.documentCount == 0, existing.views.primary.settings.replicas.isEmpty else {
                throw .invalidSetting(name: key, expected: "names of new or empty indices ('\(replica)' holds records or replicas)")
            }
            var own = existing.views.primary.settings.json()
            own["replicas"] = nil
            plan.adopted[replica] = (own, existing.views.primary.generation)
        }
        return plan
    }

    /// After the commit: the adopted indices are now replicas, so their stores go.
    func finish(_ plan: EngineReplicaPlan, primary: String) {
        for (name, adopted) in plan.adopted
        where !discard(name, ifGenerationIs: adopted.generation, lifecycleHeld: true) {
            log("index '\(name)' was written to while becoming a replica of '\(primary)'; kept as an index of its own")
        }
        if let index = state.withLock({ $0.indices[primary] }) { refreshReplicas(of: index) }
    }

    /// Records which names are replicas of `index`, from its current settings.
    func refreshReplicas(of index: EngineIndex) {
        let replicas = index.views.primary.settings.replicas.map(\.name)
        state.withLock { state in
            state.replicaOf = state.replicaOf.filter { $0.value != index.name }
            for replica in replicas where state.indices[replica] == nil {
                state.replicaOf[replica] = index.name
            }
        }
    }

    /// Merges `json` into the replica's own settings, in its primary's store.
    func setReplicaSettings(_ json: JSONObject, replica: String, primary: String) throws(BackendError) -> UInt64 {
        if let key = ["replicas", "slaves"].first(where: { json[$0] != nil }) {
            throw .invalidSetting(name: key, expected: "absent: '\(replica)' is a replica of '\(primary)'")
        }
        return try performWrite(index: primary, create: false) { (store, _) throws(BackendError) in
            guard store.settings.replicas.contains(where: { $0.name == replica }) else {
                throw BackendError.indexNotFound(replica)
            }
            var own = store.replicaSettings[replica] ?? [:]
            for (key, value) in json {
                let current = IndexSettings.legacyNames[key] ?? key
                if IndexSettings.readOnlyNames.contains(current) { continue }
                own[current] = value.isNull ? nil : value
            }
            try store.replaceReplicaSettings(replica, own)
            return ((), .rebuild(only: replica))
        }.generation
    }

    /// Deletes a replica by removing it from its primary's list.
    func detachReplica(_ replica: String, from primary: String) throws(BackendError) {
        try lifecycle.withLock { () throws(BackendError) in
            _ = try performWrite(index: primary, create: false, lifecycleHeld: true) { (store, _) throws(BackendError) in
                var settings = store.settings
                settings.replicas.removeAll { $0.name == replica }
                try store.replaceSettings(settings)
                try store.replaceReplicaSettings(replica, nil)
                return ((), .rebuild(only: nil))
            }
            if let index = state.withLock({ $0.indices[primary] }) { refreshReplicas(of: index) }
        }
    }
}

/// Indices that become replicas, with the settings they keep as their own.
struct EngineReplicaPlan {
    /// Adopted index name → the settings it keeps, and its generation when checked empty.
    var adopted: [String: (settings: JSONObject, generation: UInt64)] = [:]

    /// Inside the primary's transaction: forget replicas no longer listed, adopt new ones.
    func apply(to store: IndexStore) throws(BackendError) {
        let listed = Set(store.settings.replicas.map(\.name))
        for name in store.replicaSettings.keys where !listed.contains(name) {
            try store.replaceReplicaSettings(name, nil)
        }
        for (name, own) in adopted {
            try store.replaceReplicaSettings(name, own.settings)
        }
    }
}
