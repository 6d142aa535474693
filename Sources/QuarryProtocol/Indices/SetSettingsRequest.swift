import QuarryJSON

/// `setSettings` {index, settings}: changes only the given settings, with
/// Algolia's names (legacy ones too). The reply lists the settings Quarry
/// stores but does not act on.
public struct SetSettingsRequest: RequestType {
    public static let method = "setSettings"
    public var index: String
    public var settings: JSONObject

    public init(params: Params) throws(ResponseError) {
        index = try params.indexName()
        guard let settings = try params.optionalObject("settings") else {
            throw params.fail("settings", expected: "an object", got: nil)
        }
        self.settings = settings
    }

    public struct Response: ResponseType {
        public var taskID: Int64
        public var unsupported: [String]

        public init(taskID: Int64, unsupported: [String]) {
            self.taskID = taskID
            self.unsupported = unsupported
        }

        public var json: JSON {
            ["taskID": .int(taskID), "unsupported": .array(unsupported.map(JSON.string))]
        }
    }
}
