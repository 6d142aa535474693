import QuarryEngine
import QuarryJSON

/// The body of `POST /collections` for one physical collection of an index.
///
/// Fields are wildcards by kind (`s_.*`, `f_.*`, `n_.*`, `o_.*`, `lo_.*`, `hi_.*`), so any attribute a record
/// brings gets its typed field without a schema change; the concrete fields then show in
/// `GET /collections/<name>`. No collection option follows from the settings: the engine has no
/// `separatorsToIndex` (it is stored in `unsupported`), so Typesense's default tokenizer stays.
public enum CollectionSchema {
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
        return ["name": .string(name), "fields": .array(fields)]
    }
}
