import QuarryEngine
import QuarryFilters
import QuarryJSON
@testable import QuarryTypesense
import XCTest
import QuarrySearchContract

/// The proof that `FilterTranslator` and `DocumentBuilder` keep the engine's filter semantics:
/// on a Typesense node started here, generated records are indexed and, for generated filter
/// expressions, the ids Typesense returns must equal the ids `FilterExpression.matches` keeps.
///
/// Records vary in shape: attributes missing, arrays, nested objects and arrays of objects,
/// negative and fractional numbers, numeric strings, booleans, mixed-case and accented facet
/// values, punctuation, backticks, empty and over-long values, tags differing only by case.
final class FilterLiveTests: XCTestCase {
    private static let settingsJSON = #"{"attributesForFaceting":["color","searchable(brand)","filterOnly(meta.kind)","size"]}"#

    func testTypesenseKeepsExactlyTheRecordsTheEngineKeeps() throws {
        let node = try LiveCollection.start()
        defer { node.stop() }
        var random = SplitMix64(seed: 0x5EED)
        let settings = try Self.settings()
        let records = (0..<300).map { Self.record($0, &random) }
        let fields = try node.index(records, settings: settings)
        let translator = FilterTranslator(collectionFields: fields)

        var checked = 0, empty = 0, everything = 0
        for _ in 0..<300 {
            let generated = Self.expression(&random, negatedRangesOnSeveralNumbers: false)
            let expression = try FilterParser.parse(generated.rendered())
            let expected = Set(records.filter { expression.matches(JSONRecordValues($0)) }.compactMap { $0["objectID"]?.stringValue })
            if expected.isEmpty { empty += 1 }
            if expected.count == records.count { everything += 1 }
            let actual: Set<String>
            switch translator.translate(expression) {
            case .all: actual = Set(records.compactMap { $0["objectID"]?.stringValue })
            case .none: actual = []
            case .filterBy(let filter): actual = try node.ids(filter: filter)
            }
            XCTAssertEqual(actual, expected, "\(expression.rendered()) → \(translator.translate(expression))\n"
                + "extra \(actual.subtracting(expected).sorted()), missing \(expected.subtracting(actual).sorted())")
            checked += 1
        }
        // The generator must produce selective filters, or the comparison proves little.
        XCTAssertEqual(checked, 300)
        XCTAssertLessThan(empty, 150)
        XCTAssertLessThan(everything, 100)
    }

    /// The one difference left: `NOT x:a TO b` on a record holding several numbers at x, some
    /// below a and some above b, none inside. The engine keeps it (no number is in the range);
    /// Typesense tests arrays with "any value", and the smallest and largest cannot tell.
    func testNegatedRangeOverNumbersOnBothSidesDiffersAsDocumented() throws {
        let node = try LiveCollection.start()
        defer { node.stop() }
        let records: [JSONObject] = [
            ["objectID": "1", "scores": [1, 9]], ["objectID": "2", "scores": [1, 2]], ["objectID": "3", "scores": [1, 5]], ["objectID": "4"],
        ]
        let translator = FilterTranslator(collectionFields: try node.index(records, settings: IndexSettings()))
        let expression = try FilterParser.parse("NOT scores:4 TO 6")
        XCTAssertEqual(Set(records.filter { expression.matches(JSONRecordValues($0)) }.compactMap { $0["objectID"]?.stringValue }), ["1", "2", "4"])
        guard case .filterBy(let filter) = translator.translate(expression) else { return XCTFail("expected a filter") }
        XCTAssertEqual(try node.ids(filter: filter), ["2", "4"])
    }

    // MARK: Generation

    private static func settings() throws -> IndexSettings {
        guard case .object(let json) = try JSONParser.parse(settingsJSON) else { throw XCTSkip("settings") }
        return try IndexSettings(json: json)
    }

    private static let long = String(repeating: "Lóng value ", count: 12)
    private static let texts: [JSON] = [
        "Red", "red", "RED", "Blue", "café", "Café", "CAFE", "cafe", "a-b", "a b", " a b ", "", "x`y", "10", "10.0", "1e1",
        "true", "TRUE", .string(long), .string(long.uppercased()), "ß", "SS",
    ]
    private static let numbers: [Double] = [-3, -2.5, -1, 0, 0.1, 0.25, 1, 2, 2.5, 3, 7, 10, 10.5, 100, 1e6]

    private static func scalar(_ random: inout SplitMix64) -> JSON {
        switch random.below(10) {
        case 0..<5: random.pick(texts)
        case 5..<8: number(&random)
        case 8: .bool(random.below(2) == 0)
        default: .null
        }
    }

    private static func number(_ random: inout SplitMix64) -> JSON {
        let value = random.pick(numbers)
        return value == value.rounded() && random.below(2) == 0 ? .int(Int64(value)) : .double(value)
    }

    private static func record(_ i: Int, _ random: inout SplitMix64) -> JSONObject {
        var record: JSONObject = ["objectID": .string("r\(i)")]
        func maybe(_ key: String, _ make: (inout SplitMix64) -> JSON) {
            if random.below(4) != 0 { record[key] = make(&random) }
        }
        maybe("color") { r in r.below(3) == 0 ? .array((0..<r.below(4)).map { _ in scalar(&r) }) : scalar(&r) }
        maybe("brand") { r in scalar(&r) }
        maybe("size") { r in r.below(5) == 0 ? scalar(&r) : number(&r) }
        maybe("price") { r in r.below(6) == 0 ? .string("7") : number(&r) }
        maybe("scores") { r in .array((0..<r.below(4)).map { _ in number(&r) }) }
        maybe("meta") { r in
            var meta: JSONObject = [:]
            if r.below(3) != 0 { meta["kind"] = scalar(&r) }
            if r.below(3) != 0 { meta["rank"] = number(&r) }
            return .object(meta)
        }
        maybe("items") { r in .array((0..<r.below(3)).map { _ in .object(["n": number(&r)]) }) }
        maybe("_tags") { r in .array((0..<r.below(4)).map { _ in .string(r.pick(["A", "a", "b", "tag x", "Tag X", "`"])) }) }
        return record
    }

    private static func expression(_ random: inout SplitMix64, negatedRangesOnSeveralNumbers: Bool) -> FilterExpression {
        // An OR joins filters of one kind only (the parser refuses the rest).
        FilterExpression(clauses: (0...random.below(3)).map { _ in
            let kind = random.below(4)
            return (0...random.below(3)).map { _ in atom(kind, &random, negatedRangesOnSeveralNumbers: negatedRangesOnSeveralNumbers) }
        })
    }

    private static func atom(_ kind: Int, _ random: inout SplitMix64, negatedRangesOnSeveralNumbers: Bool) -> FilterAtom {
        let negated = random.below(3) == 0
        switch kind {
        case 0:
            let value: FacetValue = switch random.below(4) {
            case 0: .number(random.pick(numbers))
            case 1: .bool(random.below(2) == 0)
            default: .string(random.pick(texts).stringValue ?? "")
            }
            return .facet(random.pick(["color", "brand", "meta.kind", "size"]), value, negated: negated)
        case 1:
            return .tag(random.pick(["A", "a", "b", "tag x", "Tag X", "`", "none"]), negated: negated)
        default:
            let multi = ["scores", "items.n", "color"], single = ["price", "size", "meta.rank", "absent"]
            let attribute = random.pick(single + multi)
            if random.below(4) == 0 {
                let a = random.pick(numbers), b = random.pick(numbers)
                let excluded = negated && multi.contains(attribute) && !negatedRangesOnSeveralNumbers
                return .range(attribute, min(a, b), random.below(8) == 0 ? min(a, b) - 1 : max(a, b), negated: negated && !excluded)
            }
            return .comparison(attribute, random.pick(NumericOperator.allCases), random.pick(numbers), negated: negated)
        }
    }
}

/// A seeded generator, so a failure replays.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }
}

/// One collection on a `TypesenseTestNode`, for the filter and schema live tests.
final class LiveCollection {
    let node: TypesenseTestNode
    let api: TypesenseAPI
    let name = "filters"

    private init(node: TypesenseTestNode) {
        self.node = node
        api = TypesenseAPI(cluster: TypesenseCluster(nodes: [node.node], apiKey: TypesenseTestNode.apiKey))
    }

    static func start() throws -> LiveCollection { LiveCollection(node: try TypesenseTestNode.start()) }

    func stop() { node.stop() }

    /// Creates the collection, imports `records` as documents, returns the collection's field names.
    func index(_ records: [JSONObject], settings: IndexSettings) throws -> [String] {
        _ = try api.createCollection(CollectionSchema.body(collection: name, settings: settings))
        let builder = DocumentBuilder(settings: settings)
        let result = try api.importDocuments(try records.map { try builder.document(for: $0) }, collection: name, action: .create)
        guard result.failed == 0 else { throw LiveError("import failed: \(result.failures)") }
        let fields = try api.collection(name)?["fields"]?.arrayValue ?? []
        return fields.compactMap { $0["name"]?.stringValue }
    }

    func search(_ parameters: JSONObject) throws -> JSONObject { try api.search(collection: name, parameters: parameters) }

    /// Every id `filter` keeps, 250 per page.
    func ids(filter: String) throws -> Set<String> {
        var ids: Set<String> = []
        for page in 1... {
            let answer = try search([
                "q": "*", "filter_by": .string(filter), "per_page": 250, "page": .int(Int64(page)), "include_fields": "id",
            ])
            guard let hits = answer["hits"]?.arrayValue else { throw LiveError("no hits for \(filter): \(answer)") }
            for hit in hits { if let id = hit["document"]?["id"]?.stringValue { ids.insert(id) } }
            if hits.count < 250 { break }
        }
        return ids
    }
}

struct LiveError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
