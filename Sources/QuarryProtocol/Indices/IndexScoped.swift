/// A request about one index: writes to the same index are ordered by it.
public protocol IndexScoped {
    var index: String { get }
    /// A second index the request writes (a copy's destination), ordered after `index`.
    var otherIndex: String? { get }
}

extension IndexScoped {
    public var otherIndex: String? { nil }
}

extension SaveObjectsRequest: IndexScoped {}
extension PartialUpdateObjectsRequest: IndexScoped {}
extension DeleteObjectsRequest: IndexScoped {}
extension ClearObjectsRequest: IndexScoped {}
extension DeleteIndexRequest: IndexScoped {}
extension SetSettingsRequest: IndexScoped {}
extension GetSettingsRequest: IndexScoped {}
extension GetObjectsRequest: IndexScoped {}
extension BrowseRequest: IndexScoped {}
extension SearchRequest: IndexScoped {}
extension ImportFileRequest: IndexScoped {}
extension DeleteByRequest: IndexScoped {}
