/// A `filter_by` value, or a filter that needs no search: Typesense rejects a filter on a
/// field no document has, so atoms on such fields are decided before any request.
public enum TypesenseFilter: Sendable, Equatable {
    /// Every record passes: send no `filter_by`.
    case all
    /// No record passes: answer empty without asking Typesense.
    case none
    case filterBy(String)
}
