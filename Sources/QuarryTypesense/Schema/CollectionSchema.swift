import QuarryJSON
import QuarrySearchContract

/// The body of `POST /collections` for one physical collection of an index.
///
/// Fields are wildcards by kind (`s_.*`, `f_.*`, `n_.*`, `o_.*`, `lo_.*`, `hi_.*`), so any attribute a record
/// brings gets its typed field without a schema change; the concrete fields then show in
/// `GET /collections/<name>`. No collection option follows from the settings (the engine has no
/// `separatorsToIndex`: it is stored in `unsupported`); `token_separators` follows the engine's tokenizer.
public enum CollectionSchema {
    /// The engine splits words at every character that is not a letter, digit or mark; Typesense by
    /// default only at spaces, dropping punctuation inside a word (`boom-and-bust` is one word,
    /// `boomandbust`). Splitting at the same characters makes both index and query the same words.
    /// Typesense 0.24 takes one-byte separators only, so non-ASCII punctuation stays its own way.
    static let tokenSeparators: [Character] = Array("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")

    public static func body(collection name: String, settings: IndexSettings) -> JSONObject {
        func field(_ name: String, _ type: String, _ extra: JSONObject = [:]) -> JSON {
            var object: JSONObject = ["name": .string(name), "type": .string(type)]
            for (key, value) in extra { object[key] = value }
            return .object(object)
        }
        let optional: JSONObject = ["optional": .bool(true)]
        let fields: [JSON] = [
            field(FieldNames.record, "string", ["index": .bool(false), "optional": .bool(true)]),
            field(FieldNames.present, "string[]", ["facet": .bool(true), "optional": .bool(true)]),
            field(FilterKeys.field, "string[]", optional),
            field(FieldNames.geo, "geopoint[]", optional),
            field(SearchTranslation.distinctKeyField, "string", ["facet": .bool(true), "optional": .bool(true)]),
            field("s_.*", "string[]", optional),
            field("f_.*", "string[]", ["facet": .bool(true), "optional": .bool(true)]),
            field("n_.*", "float[]", optional),
            field("o_.*", "float", ["sort": .bool(true), "optional": .bool(true)]),
            field("lo_.*", "float", optional),
            field("hi_.*", "float", optional),
        ]
        return ["name": .string(name), "fields": .array(fields), "token_separators": .array(tokenSeparators.map { .string(String($0)) })]
    }
}
