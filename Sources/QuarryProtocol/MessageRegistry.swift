/// Every method Quarry answers, in one list per kind, alphabetical by method name. The
/// OpenRPC document in `protocol/` is checked against these lists by a test.
public enum MessageRegistry {
    public static let requests: [any RequestType.Type] = [
        AddFacetsSearcherRequest.self,
        AddHitsSearcherRequest.self,
        BrowseRequest.self,
        ClearFiltersRequest.self,
        ClearObjectsRequest.self,
        CloseSessionRequest.self,
        DeleteByRequest.self,
        DeleteIndexRequest.self,
        DeleteObjectsRequest.self,
        GetObjectsRequest.self,
        GetSettingsRequest.self,
        GetStateRequest.self,
        ImportFileRequest.self,
        InitializeRequest.self,
        ListIndicesRequest.self,
        ListenHTTPRequest.self,
        ListSessionsRequest.self,
        LoadPageRequest.self,
        OpenSessionRequest.self,
        OperationIndexRequest.self,
        PartialUpdateObjectsRequest.self,
        RemoveSearcherRequest.self,
        SaveObjectsRequest.self,
        SearchRequest.self,
        SearchForFacetValuesRequest.self,
        SetFiltersRequest.self,
        SetHierarchicalFilterRequest.self,
        SetIndexRequest.self,
        SetQueryRequest.self,
        SetSettingsRequest.self,
        ShutdownRequest.self,
        StopServerRequest.self,
        ToggleFilterRequest.self,
        ToggleRelevantSortRequest.self,
    ]

    public static let clientNotifications: [any ClientNotificationType.Type] = [
        CancelRequestNotification.self,
        ExitNotification.self,
        InitializedNotification.self,
    ]

    public static let serverNotifications: [any ServerNotificationType.Type] = [
        ProgressNotification.self,
        ResultsUpdatedNotification.self,
        StateChangedNotification.self,
    ]

    public static var requestMethods: [String] { requests.map { $0.method } }
}
