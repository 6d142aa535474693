import QuarryProtocol

extension Server {
    /// The one dispatch switch: every method, its handler, and where it runs
    /// (see `Execution`). Adding a method: its type in QuarryProtocol, its entry
    /// in `MessageRegistry`, a case here, a page in `protocol/`. Session changes
    /// run inline: they wait only for their session's queue, never for a search.
    func route(for method: String) -> Route? {
        switch method {
        case AddFacetsSearcherRequest.method: .request(AddFacetsSearcherRequest.self, .inline, addFacetsSearcher)
        case AddHitsSearcherRequest.method: .request(AddHitsSearcherRequest.self, .inline, addHitsSearcher)
        case BrowseRequest.method: .request(BrowseRequest.self, .read, browse)
        case ClearFiltersRequest.method: .request(ClearFiltersRequest.self, .inline, clearFilters)
        case ClearObjectsRequest.method: .request(ClearObjectsRequest.self, .write, clearObjects)
        case CloseSessionRequest.method: .request(CloseSessionRequest.self, .inline, closeSession)
        case DeleteIndexRequest.method: .request(DeleteIndexRequest.self, .write, deleteIndex)
        case DeleteObjectsRequest.method: .request(DeleteObjectsRequest.self, .write, deleteObjects)
        case GetObjectsRequest.method: .request(GetObjectsRequest.self, .read, getObjects)
        case GetSettingsRequest.method: .request(GetSettingsRequest.self, .read, getSettings)
        case GetStateRequest.method: .request(GetStateRequest.self, .inline, getState)
        case ImportFileRequest.method: .request(ImportFileRequest.self, .write, importFile)
        case InitializeRequest.method: .request(InitializeRequest.self, .inline, initialize)
        case ListIndicesRequest.method: .request(ListIndicesRequest.self, .read, listIndices)
        case ListSessionsRequest.method: .request(ListSessionsRequest.self, .inline, listSessions)
        case LoadPageRequest.method: .request(LoadPageRequest.self, .read, loadPage)
        case OpenSessionRequest.method: .request(OpenSessionRequest.self, .inline, openSession)
        case PartialUpdateObjectsRequest.method: .request(PartialUpdateObjectsRequest.self, .write, partialUpdateObjects)
        case RemoveSearcherRequest.method: .request(RemoveSearcherRequest.self, .inline, removeSearcher)
        case SaveObjectsRequest.method: .request(SaveObjectsRequest.self, .write, saveObjects)
        case SearchRequest.method: .request(SearchRequest.self, .read, search)
        case SearchForFacetValuesRequest.method: .request(SearchForFacetValuesRequest.self, .read, searchForFacetValues)
        case SetFiltersRequest.method: .request(SetFiltersRequest.self, .inline, setFilters)
        case SetHierarchicalFilterRequest.method: .request(SetHierarchicalFilterRequest.self, .inline, setHierarchicalFilter)
        case SetIndexRequest.method: .request(SetIndexRequest.self, .inline, setIndex)
        case SetQueryRequest.method: .request(SetQueryRequest.self, .inline, setQuery)
        case SetSettingsRequest.method: .request(SetSettingsRequest.self, .write, setSettings)
        case ShutdownRequest.method: .request(ShutdownRequest.self, .inline, shutdown)
        case StopServerRequest.method: .request(StopServerRequest.self, .inline, stopServer)
        case ToggleFilterRequest.method: .request(ToggleFilterRequest.self, .inline, toggleFilter)
        case ToggleRelevantSortRequest.method: .request(ToggleRelevantSortRequest.self, .inline, toggleRelevantSort)
        default: nil
        }
    }
}
