import QuarryJSON
import QuarrySearchContract

/// Some indices on a cluster, the rest in the embedded engine: each call goes
/// to the backend that holds its index. A replica lives where its primary does.
public struct RoutedBackend: IndexBackend {
    /// Which indices the remote backend holds.
    public enum Selection: Sendable, Equatable {
        case all
        case named(Set<String>)
    }

    public let local: any IndexBackend
    public let remote: any IndexBackend
    public let selection: Selection

    public init(local: any IndexBackend, remote: any IndexBackend, selection: Selection) {
        self.local = local
        self.remote = remote
        self.selection = selection
    }

    public var description: BackendDescription {
        var description = remote.description
        guard case .named(let names) = selection else { return description }
        description.name = "routed"
        description.details["indices"] = .array(names.sorted().map(JSON.string))
        return description
    }

    /// The backend that holds `index` (or the replica's primary).
    public func backend(for index: String) -> any IndexBackend {
        isRemote(index) ? remote : local
    }

    public func search(index: String, query: SearchQuery) throws(BackendError) -> SearchResponse {
        try backend(for: index).search(index: index, query: query)
    }

    public func searchForFacetValues(index: String, query: FacetValueQuery) throws(BackendError) -> FacetValuesResponse {
        try backend(for: index).searchForFacetValues(index: index, query: query)
    }

    /// The cluster's reads as one batch, the engine's as another, answered in the given order.
    public func searchBatch(_ reads: [BatchRead]) -> [Result<SearchAnswer, BackendError>] {
        let remoteAt = reads.indices.filter { isRemote(reads[$0].index) }
        let localAt = reads.indices.filter { !isRemote(reads[$0].index) }
        var answers = [Result<SearchAnswer, BackendError>](repeating: .failure(.indexNotFound("")), count: reads.count)
        for (backend, positions) in [(remote, remoteAt), (local, localAt)] where !positions.isEmpty {
            let results = backend.searchBatch(positions.map { reads[$0] })
            for (position, result) in zip(positions, results) { answers[position] = result }
        }
        return answers
    }

    public func settings(index: String) throws(BackendError) -> IndexSettings {
        try backend(for: index).settings(index: index)
    }

    /// Both backends' indices; with `.all` the engine's are not served and not listed.
    public func listIndices(memory: Bool) throws(BackendError) -> [IndexSummary] {
        let remoteIndices = try remote.listIndices(memory: memory)
        guard case .named = selection else { return remoteIndices }
        let localIndices = try local.listIndices(memory: memory).filter { !isRemote($0.name) }
        return (remoteIndices.filter { isRemote($0.name) } + localIndices).sorted { $0.name < $1.name }
    }

    private func isRemote(_ index: String) -> Bool {
        switch selection {
        case .all: true
        case .named(let names): names.contains(index) || remote.primary(ofReplica: index).map(names.contains) == true
        }
    }

    public func getObjects(_ objectIDs: [String], index: String, attributesToRetrieve: [String]?) throws(BackendError) -> [JSONObject?] {
        try backend(for: index).getObjects(objectIDs, index: index, attributesToRetrieve: attributesToRetrieve)
    }

    public func browse(index: String, from position: BrowsePosition, hitsPerPage: Int?, attributesToRetrieve: [String]?)
        throws(BackendError) -> BrowsePage
    {
        try backend(for: index).browse(index: index, from: position, hitsPerPage: hitsPerPage, attributesToRetrieve: attributesToRetrieve)
    }

    public func primary(ofReplica name: String) -> String? {
        remote.primary(ofReplica: name) ?? local.primary(ofReplica: name)
    }

    public func saveObjects(_ objects: [JSONObject], index: String) throws(BackendError) -> WriteReceipt {
        try backend(for: index).saveObjects(objects, index: index)
    }

    public func partialUpdateObjects(_ objects: [JSONObject], index: String, createIfNotExists: Bool) throws(BackendError) -> WriteReceipt {
        try backend(for: index).partialUpdateObjects(objects, index: index, createIfNotExists: createIfNotExists)
    }

    public func deleteObjects(_ objectIDs: [String], index: String) throws(BackendError) -> WriteReceipt {
        try backend(for: index).deleteObjects(objectIDs, index: index)
    }

    public func clearObjects(index: String) throws(BackendError) -> WriteReceipt {
        try backend(for: index).clearObjects(index: index)
    }

    public func setSettings(_ settings: JSONObject, index: String) throws(BackendError) -> SettingsReceipt {
        try backend(for: index).setSettings(settings, index: index)
    }

    public func deleteIndex(_ name: String) throws(BackendError) -> Bool {
        try backend(for: name).deleteIndex(name)
    }

    /// A copy between the engine and the cluster is refused: each holds its indices whole.
    public func copyIndex(_ name: String, to destination: String, records: Bool, settings: Bool, move: Bool)
        throws(BackendError) -> WriteReceipt
    {
        guard isRemote(name) == isRemote(destination) else {
            throw .invalidParameter(name: "destination", expected: "an index on the same backend as '\(name)' "
                                    + "(one is on the Typesense cluster, the other in the embedded engine)")
        }
        return try backend(for: name).copyIndex(name, to: destination, records: records, settings: settings, move: move)
    }

    public func deleteBy(index: String, query: SearchQuery) throws(BackendError) -> WriteReceipt {
        try backend(for: index).deleteBy(index: index, query: query)
    }

    public func importRecords(
        index: String, from path: String, format: ImportFormat?, settings: JSONObject?, skipInvalid: Bool,
        progress: @Sendable (ImportProgress) -> Void, isCancelled: @Sendable () -> Bool
    ) throws(BackendError) -> ImportReceipt {
        try backend(for: index).importRecords(index: index, from: path, format: format, settings: settings,
                                              skipInvalid: skipInvalid, progress: progress, isCancelled: isCancelled)
    }

    public func health() -> JSONObject {
        ["local": .object(local.health()), "remote": .object(remote.health())]
    }

    public func close() {
        remote.close()
        local.close()
    }
}
