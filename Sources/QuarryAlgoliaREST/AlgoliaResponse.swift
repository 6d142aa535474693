import QuarryJSON

/// What the HTTP edge sends back: a status and a JSON body, Algolia's error body for a 4xx.
public struct AlgoliaResponse: Sendable, Equatable {
    public var status: Int
    public var body: JSON

    public init(status: Int, body: JSON) {
        self.status = status
        self.body = body
    }

    public static func ok(_ body: JSON) -> AlgoliaResponse { AlgoliaResponse(status: 200, body: body) }

    /// Algolia's error body: `{"message": …, "status": N}`.
    public static func error(_ status: Int, _ message: String) -> AlgoliaResponse {
        AlgoliaResponse(status: status, body: ["message": .string(message), "status": JSON(status)])
    }

    /// A key is missing or is neither of keys.json's: Algolia's own words and status.
    public static let invalidKey = error(403, "Invalid Application-ID or API key")

    /// An Algolia feature Quarry does not have: a 400 naming it, never a silent success.
    static func unsupported(_ feature: String) -> AlgoliaResponse {
        error(400, "\(feature) is not supported by Quarry (see protocol/algolia-rest.md)")
    }
}
