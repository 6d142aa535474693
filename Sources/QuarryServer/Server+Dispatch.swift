import QuarryProtocol

extension Server {
    /// The one dispatch switch: every method, its handler, and where it runs
    /// (see `Execution`). Adding a method: its type in QuarryProtocol, its entry
    /// in `MessageRegistry`, a case here, a page in `protocol/`.
    func route(for method: String) -> Route? {
        switch method {
        case ClearObjectsRequest.method: .request(ClearObjectsRequest.self, .write, clearObjects)
        case DeleteIndexRequest.method: .request(DeleteIndexRequest.self, .write, deleteIndex)
        case DeleteObjectsRequest.method: .request(DeleteObjectsRequest.self, .write, deleteObjects)
        case GetSettingsRequest.method: .request(GetSettingsRequest.self, .read, getSettings)
        case ImportFileRequest.method: .request(ImportFileRequest.self, .write, importFile)
        case InitializeRequest.method: .request(InitializeRequest.self, .inline, initialize)
        case ListIndicesRequest.method: .request(ListIndicesRequest.self, .read, listIndices)
        case PartialUpdateObjectsRequest.method: .request(PartialUpdateObjectsRequest.self, .write, partialUpdateObjects)
        case SaveObjectsRequest.method: .request(SaveObjectsRequest.self, .write, saveObjects)
        case SearchRequest.method: .request(SearchRequest.self, .read, search)
        case SearchForFacetValuesRequest.method: .request(SearchForFacetValuesRequest.self, .read, searchForFacetValues)
        case SetSettingsRequest.method: .request(SetSettingsRequest.self, .write, setSettings)
        case ShutdownRequest.method: .request(ShutdownRequest.self, .inline, shutdown)
        case StopServerRequest.method: .request(StopServerRequest.self, .inline, stopServer)
        default: nil
        }
    }
}
