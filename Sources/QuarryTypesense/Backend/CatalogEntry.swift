import QuarryJSON
import QuarrySearchContract

/// What the cluster knows of one primary index beyond its documents, kept in
/// the `quarry__meta` collection so every daemon pointed at the cluster sees
/// the same indices: the settings as set, its replicas' own settings, and
/// which physical collection its alias points at.
struct CatalogEntry: Sendable, Equatable {
    var name: String
    /// The primary's settings as Quarry renders them (`IndexSettings.json()`).
    /// Setting it also drops the own settings of replicas it no longer lists.
    var settings: JSONObject {
        didSet {
            parsedSettings = Self.parse(settings)
            replicaSettings = replicaSettings.filter { name, _ in parsedSettings.replicas.contains { $0.name == name } }
        }
    }
    /// `settings` parsed, once per change rather than on every keystroke that reads them.
    private(set) var parsedSettings: IndexSettings
    /// Each replica's own keys, over the primary's (as the engine keeps them).
    var replicaSettings: [String: JSONObject]
    /// The physical collection the index's alias points at.
    var collection: String
    var generation: Int
    /// Milliseconds since 1970.
    var createdAt: Int64
    var updatedAt: Int64

    init(name: String, settings: JSONObject, replicaSettings: [String: JSONObject] = [:], collection: String, generation: Int,
         createdAt: Int64, updatedAt: Int64) {
        self.name = name
        self.settings = settings
        parsedSettings = Self.parse(settings)
        self.replicaSettings = replicaSettings
        self.collection = collection
        self.generation = generation
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    private static func parse(_ settings: JSONObject) -> IndexSettings {
        (try? IndexSettings(json: settings)) ?? IndexSettings()
    }

    var replicaNames: [String] { parsedSettings.replicas.map(\.name) }

    /// The settings a replica searches with: the primary's overlaid with its own keys, as the engine does.
    func effectiveSettings(replica: String) -> IndexSettings {
        let primary = parsedSettings
        var effective = primary
        effective.replicas = []
        try? effective.merge(replicaSettings[replica] ?? [:])
        effective.primary = name
        effective.isVirtualReplica = primary.replicas.first(where: { $0.name == replica })?.isVirtual ?? false
        return effective
    }

    // MARK: The meta document

    var document: JSONObject {
        var replicas: JSONObject = [:]
        for (name, own) in replicaSettings.sorted(by: { $0.key < $1.key }) { replicas[name] = .object(own) }
        return [
            "id": .string(FieldNames.encode(name)), "name": .string(name),
            "settings": .string(JSONWriter.string(.object(settings))),
            "replicaSettings": .string(JSONWriter.string(.object(replicas))),
            "collection": .string(collection), "generation": JSON(generation),
            "createdAt": .int(createdAt), "updatedAt": .int(updatedAt),
        ]
    }

    init?(document: JSONObject) {
        guard let name = document["name"]?.stringValue, let collection = document["collection"]?.stringValue,
              let generation = document["generation"]?.intValue,
              case .object(let settings)? = document["settings"]?.stringValue.flatMap({ try? JSONParser.parse($0) })
        else { return nil }
        var replicaSettings: [String: JSONObject] = [:]
        if case .object(let replicas)? = document["replicaSettings"]?.stringValue.flatMap({ try? JSONParser.parse($0) }) {
            for (replica, own) in replicas { if let own = own.objectValue { replicaSettings[replica] = own } }
        }
        self.init(name: name, settings: settings, replicaSettings: replicaSettings, collection: collection, generation: generation,
                  createdAt: document["createdAt"]?.intValue.map(Int64.init) ?? 0, updatedAt: document["updatedAt"]?.intValue.map(Int64.init) ?? 0)
    }

    /// The meta collection's schema: documents are looked up by id; nothing else is searched.
    static let metaSchema: JSONObject = [
        "name": .string(FieldNames.metaCollection),
        "fields": [["name": "name", "type": "string"]],
    ]
}
