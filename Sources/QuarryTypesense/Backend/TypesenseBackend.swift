import QuarryBackend
import QuarryJSON
import QuarryRecords
import QuarrySync
import QuarrySearchContract

/// Indices on a Typesense cluster, answering as the embedded engine does.
///
/// Each index is an alias over a physical collection of derived documents
/// (`DocumentBuilder`); rebuilds (settings that change the derivation, imports,
/// clears) fill a new collection and swap the alias, so readers never see a
/// half-built index and a failed import leaves the old one in place. Settings
/// and replicas live in the cluster's `quarry__meta` collection, so another
/// daemon pointed at the same cluster serves the same indices.
public final class TypesenseBackend: IndexBackend {
    let cluster: TypesenseCluster
    let api: TypesenseAPI
    let catalog: IndexCatalog
    let configuration: TypesenseConfiguration
    let log: @Sendable (String) -> Void
    let taskIDs = TaskIDs()
    /// Holds the catalogue's and the kept counts' refreshes back while searches wait on the cluster.
    let gate = RefreshGate()
    let counts: CountCache
    private let prepared = Locked(false)

    /// `transport`: how requests reach the nodes (a test counts them through a wrapper).
    public init(configuration: TypesenseConfiguration, transport: any HTTPTransport = SocketTransport.shared,
                log: @escaping @Sendable (String) -> Void) {
        self.configuration = configuration
        self.log = log
        cluster = TypesenseCluster(configuration: configuration, transport: transport, log: log)
        api = TypesenseAPI(cluster: cluster)
        catalog = IndexCatalog(api: api, gate: gate)
        counts = CountCache(gate: gate)
    }

    public var description: BackendDescription {
        BackendDescription(
            name: "typesense", differences: TypesenseDifferences.identifiers,
            details: ["nodes": .array(configuration.nodes.map(JSON.string))])
    }

    /// The meta collection exists before the first call that needs it; a
    /// cluster still electing at start-up fails that call, not the daemon.
    func ready() throws(BackendError) {
        if prepared.withLock({ $0 }) { return }
        try catalog.prepare()
        prepared.withLock { $0 = true }
    }

    public func health() -> JSONObject { cluster.health() }

    public func close() {}

    // MARK: Reads

    public func settings(index: String) throws(BackendError) -> IndexSettings {
        try ready()
        let (entry, replica) = try catalog.resolve(index)
        guard let replica else { return entry.parsedSettings }
        return entry.effectiveSettings(replica: replica)
    }

    public func primary(ofReplica name: String) -> String? {
        catalog.primary(ofReplica: name)
    }

    public func listIndices(memory: Bool) throws(BackendError) -> [IndexSummary] {
        try ready()
        var summaries: [IndexSummary] = []
        for entry in try catalog.snapshot().entries.values {
            let collection = try call { () throws(TypesenseError) in try api.collection(entry.collection) }
            let entries = collection?["num_documents"]?.intValue ?? 0
            func summary(_ name: String, primary: String?) -> IndexSummary {
                IndexSummary(name: name, entries: entries, dataSize: 0, fileSize: 0, createdAt: entry.createdAt,
                             updatedAt: entry.updatedAt, lastBuildTimeS: 0, replicas: primary == nil ? entry.replicaNames : [],
                             primary: primary, memory: nil)
            }
            summaries.append(summary(entry.name, primary: nil))
            summaries += entry.replicaNames.map { summary($0, primary: entry.name) }
        }
        return summaries.sorted { $0.name < $1.name }
    }

    public func getObjects(_ objectIDs: [String], index: String, attributesToRetrieve: [String]?) throws(BackendError) -> [JSONObject?] {
        try ready()
        let (entry, _) = try catalog.resolve(index)
        let retrieve = attributesToRetrieve.flatMap { $0.contains("*") ? nil : $0 }
        var found: [JSONObject?] = []
        for objectID in objectIDs {
            let document = try call { () throws(TypesenseError) in
                try api.document(objectID, collection: FieldNames.alias(ofIndex: entry.name))
            }
            found.append(document.flatMap(Self.record).map {
                RecordAttributes.retrieve(retrieve, from: $0, objectID: objectID)
            })
        }
        return found
    }

    /// The record a document carries, as it was saved.
    static func record(of document: JSONObject) -> JSONObject? {
        guard let text = document[FieldNames.record]?.stringValue, case .object(let record)? = try? JSONParser.parse(text) else {
            return nil
        }
        return record
    }
}
