import QuarryFilters
import QuarryJSON
import QuarryRecords
import QuarrySearchContract
import QuarryText

/// How one record becomes one Typesense document (see `FieldNames` for the field kinds).
///
/// - `id` is the objectID; `_q_record` the record's JSON text, objectID included, so hits
///   come back exactly as saved.
/// - `s_<path>`: one field per `SearchableLayout` slot (with no `searchableAttributes`, each
///   top-level attribute but objectID). Its array holds `SearchableLayout.text(of:)` of the
///   slot's leaves in `SearchableLayout.forEachValue` order: the i-th string is the i-th value
///   the engine would index for that slot, which is how Typesense highlights map back onto the
///   record. Leaves with no text (booleans, null) are skipped, as the engine skips them.
/// - `f_<path>`: facet texts as the engine renders them (`10`, `10.5`, `true`), distinct, in
///   record order, for every `attributesForFaceting` entry, `attributeForDistinct` and `_tags`;
///   each marked with a hash of its exact text (`FacetText.encode`) so Typesense counts texts apart
///   that differ only in case or accents.
/// - `n_<path>` / `o_<path>`: every number at the path / the first one, for numeric filters and
///   sorts; paths dotted, arrays flattened, booleans and numeric strings excluded (the engine's
///   numeric filters never match them). Typesense floats are 32-bit: values are rounded to
///   the nearest float, and those beyond its range clamped to its largest finite value.
/// - `lo_<path>` / `hi_<path>` (`NumericBounds`): the smallest and largest number, only where a
///   record holds several, for negated comparisons.
/// - `_q_present`: every attribute path the record holds (dotted for nested objects).
/// - `_q_filter`: the `FilterKeys` that facet, tag, `=` and negated numeric filters test.
/// - `_q_distinct`: with `attributeForDistinct`, the group a record falls in (see `SearchTranslation.distinctKeyField`).
/// - `_q_geo`: the `_geoloc` points the engine reads; Typesense 0.24.1 takes out-of-range ones
///   (lat 95, lng 200) as the engine does, so only non-finite ones are dropped.
public struct DocumentBuilder: Sendable {
    public let settings: IndexSettings
    package let layout: SearchableLayout
    /// Paths with facet texts: facet attributes, the distinct attribute, `_tags`.
    public let facetPaths: [String]

    public init(settings: IndexSettings) {
        self.settings = settings
        layout = SearchableLayout(settings: settings)
        var paths: [String] = []
        for facet in settings.attributesForFaceting where !paths.contains(facet.attribute) { paths.append(facet.attribute) }
        if let distinct = settings.attributeForDistinct, !distinct.isEmpty, !paths.contains(distinct) { paths.append(distinct) }
        if !paths.contains(FilterAtom.tagsAttribute) { paths.append(FilterAtom.tagsAttribute) }
        facetPaths = paths
    }

    public func document(for record: JSONObject) throws(BackendError) -> JSONObject {
        guard let objectID = record["objectID"]?.stringValue else {
            throw .invalidRecord(position: "record", reason: "objectID must be a string")
        }
        var document: JSONObject = ["id": .string(objectID), FieldNames.record: .string(JSONWriter.string(.object(record)))]
        var keys: [String] = []

        var searchable: [(field: String, texts: [JSON])] = []
        var lastSlot = -1
        layout.forEachValue(of: record) { slot, name, leaf in
            if slot != lastSlot {
                searchable.append((FieldNames.searchable(name), []))
                lastSlot = slot
            }
            if let text = SearchableLayout.text(of: leaf) { searchable[searchable.count - 1].texts.append(.string(text)) }
        }
        for (field, texts) in searchable where !texts.isEmpty {
            // Two slots can name one path (`"a"` listed twice); the first keeps it.
            if document[field] == nil { document[field] = .array(texts) }
        }

        for path in facetPaths {
            var texts: [String] = [], seen: Set<String> = []
            FacetValues.leaves(of: record, path: path) { leaf in
                guard let text = FacetValues.text(of: leaf), seen.insert(text).inserted else { return }
                texts.append(text)
            }
            guard !texts.isEmpty else { continue }
            document[FieldNames.facet(path)] = .array(texts.map { .string(FacetText.encode($0)) })
            for text in texts {
                keys.append(FilterKeys.facet(path, text: text))
                if let number = FacetText.number(text) { keys.append(FilterKeys.facetNumber(path, number)) }
                if path == FilterAtom.tagsAttribute { keys.append(FilterKeys.tag(text)) }
            }
        }

        if let distinct = settings.attributeForDistinct, !distinct.isEmpty {
            // The engine groups on the first value; a record without one is a group of its own.
            var first: String?
            FacetValues.leaves(of: record, path: distinct) { leaf in if first == nil { first = FacetValues.text(of: leaf) } }
            document[SearchTranslation.distinctKeyField] = .string(first.map { "v" + $0 } ?? "r" + objectID)
        }

        var numbers: [String: [Double]] = [:], numericPaths: [String] = []
        FacetValues.numbers(of: record) { path, value in
            if numbers[path] == nil { numericPaths.append(path) }
            numbers[path, default: []].append(value)
        }
        for path in numericPaths {
            guard let values = numbers[path], let first = values.first else { continue }
            document[FieldNames.numeric(path)] = .array(values.map { .double(Self.float($0)) })
            document[FieldNames.sortable(path)] = .double(Self.float(first))
            keys.append(FilterKeys.hasNumber(path))
            var seen: Set<String> = []
            for value in values {
                let key = FilterKeys.number(path, value)
                if seen.insert(key).inserted { keys.append(key) }
            }
            if values.count > 1, let lowest = values.min(), let highest = values.max() {
                document[NumericBounds.lowest(path)] = .double(Self.float(lowest))
                document[NumericBounds.highest(path)] = .double(Self.float(highest))
                keys.append(FilterKeys.severalNumbers(path))
            }
        }

        document[FieldNames.present] = .array(Self.presentPaths(of: record).map(JSON.string))
        let points = FacetValues.geoPoints(of: record).filter { $0.lat.isFinite && $0.lng.isFinite }
        if !points.isEmpty {
            document[FieldNames.geo] = .array(points.map { .array([.double($0.lat), .double($0.lng)]) })
        }
        document[FilterKeys.field] = .array(keys.map(JSON.string))
        return document
    }

    /// `value` as the float Typesense stores, kept finite.
    static func float(_ value: Double) -> Double {
        let largest = Double(Float.greatestFiniteMagnitude)
        return Double(Float(min(max(value, -largest), largest)))
    }

    /// Top-level keys and the dotted paths of nested object members (objects inside arrays too).
    static func presentPaths(of record: JSONObject) -> [String] {
        var paths: [String] = [], seen: Set<String> = []
        func visit(_ value: JSON, _ path: String) {
            if seen.insert(path).inserted { paths.append(path) }
            switch value {
            case .object(let object): for (key, member) in object { visit(member, path + "." + key) }
            case .array(let elements):
                for element in elements {
                    if case .object(let object) = element { for (key, member) in object { visit(member, path + "." + key) } }
                }
            default: return
            }
        }
        for (key, value) in record { visit(value, key) }
        return paths
    }
}
