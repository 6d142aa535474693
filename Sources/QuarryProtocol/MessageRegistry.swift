/// Every method Quarry answers, in one list per kind, alphabetical by method name. The
/// OpenRPC document in `protocol/` is checked against these lists by a test.
public enum MessageRegistry {
    public static let requests: [any RequestType.Type] = [
        ClearObjectsRequest.self,
        DeleteIndexRequest.self,
        DeleteObjectsRequest.self,
        GetSettingsRequest.self,
        ImportFileRequest.self,
        InitializeRequest.self,
        ListIndicesRequest.self,
        PartialUpdateObjectsRequest.self,
        SaveObjectsRequest.self,
        SearchRequest.self,
        SearchForFacetValuesRequest.self,
        SetSettingsRequest.self,
        ShutdownRequest.self,
        StopServerRequest.self,
    ]

    public static let clientNotifications: [any ClientNotificationType.Type] = [
        CancelRequestNotification.self,
        ExitNotification.self,
        InitializedNotification.self,
    ]

    public static let serverNotifications: [any ServerNotificationType.Type] = [
        ProgressNotification.self,
    ]

    public static var requestMethods: [String] { requests.map { $0.method } }
}
