import QuarryEngine
import QuarryFilters
import QuarryJSON
@testable import QuarryTypesense
import QuarrySearchContract

/// Records, settings and multi_search answers captured from a Typesense 0.24.1 node
/// (`/tmp` collection `fx`, documents shaped as `DocumentBuilder` makes them), for tests that
/// need no node: the answers are those of the requests `SearchTranslation` makes for them.
enum SearchFixtures {
    static let records = #"[{"objectID":"1","title":"The giver","color":"red","brand":"Acme","popularity":5},{"objectID":"2","title":"Giving tree","color":"blue","brand":"Acme","popularity":9},{"objectID":"3","title":"Taker","color":"red","brand":"Bolt","popularity":7},{"objectID":"4","title":"Given up","color":"green","popularity":1},{"objectID":"5","title":"Gift","color":"Red","brand":"Bolt","price":12.5}]"#
    static let settings = #"{"searchableAttributes":["title"],"attributesForFaceting":["color","brand","price"],"customRanking":["desc(popularity)"]}"#
    static let fields: Set<String> = ["_q_record", "_q_geo", "_q_present", "f_brand", "f_color", "f_price", "n_popularity", "n_price",
                                      "o_popularity", "o_price", "s_title"]

    /// `{query: "giv", facets: [color, brand], disjunctiveFilters: {color: "color:red OR color:blue"}, hitsPerPage: 2}`.
    static let disjunctive = #"{"results":[{"facet_counts":[{"counts":[{"count":2,"highlighted":"Acme","value":"Acme"}],"field_name":"f_brand","stats":{"total_values":1}}],"found":2,"hits":[{"document":{"_q_record":"{\"objectID\":\"2\",\"title\":\"Giving tree\",\"color\":\"blue\",\"brand\":\"Acme\",\"popularity\":9}"},"highlight":{},"highlights":[],"text_match":578730089005449337,"text_match_info":{"best_field_score":"1108074561536","best_field_weight":15,"fields_matched":1,"score":"578730089005449337","tokens_matched":1}},{"document":{"_q_record":"{\"objectID\":\"1\",\"title\":\"The giver\",\"color\":\"red\",\"brand\":\"Acme\",\"popularity\":5}"},"highlight":{},"highlights":[],"text_match":578730089005449337,"text_match_info":{"best_field_score":"1108074561536","best_field_weight":15,"fields_matched":1,"score":"578730089005449337","tokens_matched":1}}],"out_of":5,"page":1,"request_params":{"collection_name":"fx","per_page":2,"q":"giv"},"search_cutoff":false,"search_time_ms":0},{"facet_counts":[{"counts":[{"count":1,"highlighted":"red","value":"red"},{"count":1,"highlighted":"blue","value":"blue"},{"count":1,"highlighted":"green","value":"green"}],"field_name":"f_color","stats":{"total_values":3}}],"found":3,"hits":[],"out_of":5,"page":1,"request_params":{"collection_name":"fx","per_page":0,"q":"giv"},"search_cutoff":false,"search_time_ms":0}]}"#
    /// `{query: "g", facets: [color]}` with `attributeForDistinct: brand`, `distinct: true`.
    static let distinct = #"{"results":[{"facet_counts":[],"found":3,"grouped_hits":[{"group_key":[["Acme"]],"hits":[{"document":{"_q_record":"{\"objectID\":\"2\",\"title\":\"Giving tree\",\"color\":\"blue\",\"brand\":\"Acme\",\"popularity\":9}"},"highlight":{},"highlights":[],"text_match":578730089005449337,"text_match_info":{"best_field_score":"1108074561536","best_field_weight":15,"fields_matched":1,"score":"578730089005449337","tokens_matched":1}}]},{"group_key":[],"hits":[{"document":{"_q_record":"{\"objectID\":\"4\",\"title\":\"Given up\",\"color\":\"green\",\"popularity\":1}"},"highlight":{},"highlights":[],"text_match":578730089005449337,"text_match_info":{"best_field_score":"1108074561536","best_field_weight":15,"fields_matched":1,"score":"578730089005449337","tokens_matched":1}}]},{"group_key":[["Bolt"]],"hits":[{"document":{"_q_record":"{\"objectID\":\"5\",\"title\":\"Gift\",\"color\":\"Red\",\"brand\":\"Bolt\",\"price\":12.5}"},"highlight":{},"highlights":[],"text_match":578730089005449337,"text_match_info":{"best_field_score":"1108074561536","best_field_weight":15,"fields_matched":1,"score":"578730089005449337","tokens_matched":1}}]}],"out_of":5,"page":1,"request_params":{"collection_name":"fx","per_page":10,"q":"g"},"search_cutoff":false,"search_time_ms":0},{"facet_counts":[{"counts":[{"count":2,"highlighted":"Red","value":"Red"},{"count":1,"highlighted":"blue","value":"blue"},{"count":1,"highlighted":"green","value":"green"}],"field_name":"f_color","stats":{"total_values":3}},{"counts":[{"count":2,"highlighted":"Acme","value":"Acme"},{"count":1,"highlighted":"Bolt","value":"Bolt"}],"field_name":"f_brand","stats":{"total_values":2}}],"found":4,"hits":[],"out_of":5,"page":1,"request_params":{"collection_name":"fx","per_page":0,"q":"g"},"search_cutoff":false,"search_time_ms":0}]}"#

    /// Facet atoms as `f_<attr>:=`value``, or-groups in parentheses: enough for these records.
    static let filter: FilterRendering = { expression in
        guard !expression.isEmpty else { return .all }
        let clauses = expression.clauses.map { clause -> String in
            let atoms = clause.map { atom -> String in
                guard case .facet(let attribute, let value) = atom.condition else { return "unsupported" }
                return FieldNames.facet(attribute) + (atom.isNegated ? ":!=`" : ":=`") + value.text + "`"
            }
            return atoms.count == 1 ? atoms[0] : "(" + atoms.joined(separator: " || ") + ")"
        }
        return .filterBy(clauses.joined(separator: " && "))
    }

    static func indexSettings(_ extra: JSONObject = [:]) throws -> IndexSettings {
        var settings = IndexSettings()
        guard case .object(var json) = try JSONParser.parse(Self.settings) else { fatalError("fixture settings") }
        for (key, value) in extra { json[key] = value }
        try settings.merge(json)
        return settings
    }

    static func results(_ text: String) throws -> [JSONObject] {
        try JSONParser.parse(text)["results"]?.arrayValue?.compactMap(\.objectValue) ?? []
    }
}

/// Adds nothing: highlighting is tested on its own (`HighlightHitTests`).
struct NoHighlighting: HitHighlighting {
    func typesenseParameters(for parameters: SearchParameters, queryBy: [String]) -> JSONObject { [:] }
    func members(record: JSONObject, typesenseHit: JSONObject, parameters: SearchParameters) -> (members: JSONObject, ranges: HitRanges) {
        ([:], HitRanges())
    }
}
