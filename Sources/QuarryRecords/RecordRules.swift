import QuarryJSON
import QuarrySearchContract

/// The rules every incoming record obeys, whichever call brings it: it is an
/// object, and its objectID is a non-empty string or an integer (stored as a
/// string), or absent and then generated.
package enum RecordRules {
    /// The record with its objectID as a string; `generate` allows a missing one.
    package static func prepare(
        _ value: JSON, position: String, generate: Bool
    ) throws(BackendError) -> (objectID: String, record: JSONObject) {
        let prepared = try preparing(value, position: position, generate: generate)
        return (prepared.objectID, prepared.record)
    }

    /// `prepare`, also saying whether the record is `value`'s own object unchanged (its objectID was
    /// already a non-empty string), so that the text it was parsed from still encodes it.
    package static func preparing(
        _ value: JSON, position: String, generate: Bool
    ) throws(BackendError) -> (objectID: String, record: JSONObject, asIs: Bool) {
        guard case .object(var record) = value else {
            throw .invalidRecord(position: position, reason: "a record must be a JSON object, not \(value.kindName)")
        }
        let objectID: String
        switch record["objectID"] {
        // Returned as is: assigning would copy the whole record, which `value` still shares.
        case .string(let text) where !text.isEmpty: return (text, record, true)
        case .int(let number): objectID = String(number)
        case nil where generate: objectID = generatedObjectID()
        case nil: throw .invalidRecord(position: position, reason: "objectID is missing")
        case .some(let other):
            throw .invalidRecord(
                position: position, reason: "objectID must be a non-empty string or an integer, not \(other.kindName)")
        }
        record["objectID"] = .string(objectID)
        return (objectID, record, false)
    }

    /// A random (version 4) UUID in its usual text form.
    static func generatedObjectID() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { text.append(UInt8(ascii: "-")) }
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
