import QuarryJSON

/// Which attributes of a stored record a read returns (`attributesToRetrieve`), alike on both backends.
package enum RecordAttributes {
    /// The record with only `names` (nil: all), `objectID` always.
    package static func retrieve(_ names: [String]?, from record: JSONObject, objectID: String) -> JSONObject {
        guard let names else { return record }
        var kept: JSONObject = ["objectID": .string(objectID)]
        for name in names where name != "objectID" {
            if let value = record[name] { kept[name] = value }
        }
        return kept
    }
}
