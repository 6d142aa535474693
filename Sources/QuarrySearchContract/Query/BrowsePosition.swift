import QuarryJSON

/// Where a browse reads from: the start of what a query matches, or where a previous page's
/// cursor stopped (the cursor carries the query).
public enum BrowsePosition: Sendable, Equatable {
    case start(SearchQuery)
    case cursor(String)

    /// A browse request's position: its cursor, or else its query and filtering parameters.
    public init(cursor: String?, parameters: JSONObject) throws(BackendError) {
        guard let cursor else {
            self = .start(try SearchQuery(json: parameters))
            return
        }
        if let key = parameters.keys.first {
            throw .invalidParameter(name: key, expected: "absent when 'cursor' is given (the cursor carries the query and filters)")
        }
        self = .cursor(cursor)
    }
}
