import QuarryProtocol

extension Server {
    /// The one dispatch switch: every method, its handler, and where it runs
    /// (see `Execution`). Adding a method: its type in QuarryProtocol, its entry
    /// in `MessageRegistry`, a case here, a page in `protocol/`. Session changes
    /// run inline (`session`): they wait only for their session's queue and the
    /// connection's own writes in flight, never for a search.
    func route(for method: String) -> Route? {
        switch method {
        case AddFacetsSearcherRequest.method: .request(AddFacetsSearcherRequest.self, .session, addFacetsSearcher)
        case AddHitsSearcherRequest.method: .request(AddHitsSearcherRequest.self, .session, addHitsSearcher)
        case BrowseRequest.method: .request(BrowseRequest.self, .read, browse)
        case ClearFiltersRequest.method: .request(ClearFiltersRequest.self, .session, clearFilters)
        case ClearObjectsRequest.method: .request(ClearObjectsRequest.self, .write, clearObjects)
        case CloseSessionRequest.method: .request(CloseSessionRequest.self, .inline, closeSession)
        case DeleteByRequest.method: .request(DeleteByRequest.self, .write, deleteBy)
        case DeleteIndexRequest.method: .request(DeleteIndexRequest.self, .write, deleteIndex)
        case DeleteObjectsRequest.method: .request(DeleteObjectsRequest.self, .write, deleteObjects)
        case GetObjectsRequest.method: .request(GetObjectsRequest.self, .read, getObjects)
        case GetSettingsRequest.method: .request(GetSettingsRequest.self, .read, getSettings)
        case GetStateRequest.method: .request(GetStateRequest.self, .inline, getState)
        case ImportFileRequest.method: .request(ImportFileRequest.self, .write, importFile)
        case InitializeRequest.method: .request(InitializeRequest.self, .inline, initialize)
        case ListenHTTPRequest.method: .request(ListenHTTPRequest.self, .inline, listenHTTP)
        case ListIndicesRequest.method: .request(ListIndicesRequest.self, .read, listIndices)
        case ListSessionsRequest.method: .request(ListSessionsRequest.self, .inline, listSessions)
        case LoadPageRequest.method: .request(LoadPageRequest.self, .read, loadPage)
        case OpenSessionRequest.method: .request(OpenSessionRequest.self, .session, openSession)
        case OperationIndexRequest.method: .request(OperationIndexRequest.self, .write, operationIndex)
        case PartialUpdateObjectsRequest.method: .request(PartialUpdateObjectsRequest.self, .write, partialUpdateObjects)
        case RemoveSearcherRequest.method: .request(RemoveSearcherRequest.self, .session, removeSearcher)
        case SaveObjectsRequest.method: .request(SaveObjectsRequest.self, .write, saveObjects)
        case SearchRequest.method: .request(SearchRequest.self, .read, search)
        case SearchForFacetValuesRequest.method: .request(SearchForFacetValuesRequest.self, .read, searchForFacetValues)
        case SetFiltersRequest.method: .request(SetFiltersRequest.self, .session, setFilters)
        case SetHierarchicalFilterRequest.method: .request(SetHierarchicalFilterRequest.self, .session, setHierarchicalFilter)
        case SetIndexRequest.method: .request(SetIndexRequest.self, .session, setIndex)
        case SetQueryRequest.method: .request(SetQueryRequest.self, .session, setQuery)
        case SetSettingsRequest.method: .request(SetSettingsRequest.self, .write, setSettings)
        case ShutdownRequest.method: .request(ShutdownRequest.self, .inline, shutdown)
        case StopServerRequest.method: .request(StopServerRequest.self, .inline, stopServer)
        case ToggleFilterRequest.method: .request(ToggleFilterRequest.self, .session, toggleFilter)
        case ToggleRelevantSortRequest.method: .request(ToggleRelevantSortRequest.self, .session, toggleRelevantSort)
        default: nil
        }
    }
}
