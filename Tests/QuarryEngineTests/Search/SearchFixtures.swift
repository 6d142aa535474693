import QuarryEngine
import QuarryJSON
import XCTest
import QuarrySearchContract

/// Builds small indexes from literal records and runs searches against them.
struct SearchFixture {
    let settings: IndexSettings
    let records: [(DocID, JSONObject)]
    let index: SearchIndex

    init(_ objects: [JSONObject], settings: IndexSettings = IndexSettings()) {
        var records: [(DocID, JSONObject)] = []
        for (i, object) in objects.enumerated() {
            var record = object
            if record["objectID"] == nil { record["objectID"] = .string("\(i)") }
            records.append((DocID(i), record))
        }
        self.settings = settings
        self.records = records
        index = SearchIndex.build(settings: settings, records: records)
    }

    /// Texts as records `{"text": …}`.
    init(texts: [String], settings: IndexSettings = IndexSettings()) {
        self.init(texts.map { ["text": .string($0)] }, settings: settings)
    }

    func search(_ query: String, _ extra: JSONObject = [:], index: SearchIndex? = nil,
                file: StaticString = #filePath, line: UInt = #line) -> SearchResponse? {
        var json = extra
        json["query"] = .string(query)
        do {
            let parameters = try SearchParameters(json: json, settings: settings)
            return try (index ?? self.index).search(parameters, records: InMemoryRecords(records))
        } catch {
            XCTFail("search failed: \(error)", file: file, line: line)
            return nil
        }
    }

    /// The objectIDs of the hits, in order.
    func ids(_ query: String, _ extra: JSONObject = [:], index: SearchIndex? = nil,
             file: StaticString = #filePath, line: UInt = #line) -> [String] {
        guard let response = search(query, extra, index: index, file: file, line: line) else { return [] }
        return response.hits.compactMap { $0["objectID"]?.stringValue }
    }

    func nbHits(_ query: String, _ extra: JSONObject = [:], file: StaticString = #filePath, line: UInt = #line) -> Int {
        search(query, extra, file: file, line: line)?.nbHits ?? -1
    }
}

extension IndexSettings {
    static func with(_ change: (inout IndexSettings) -> Void) -> IndexSettings {
        var settings = IndexSettings()
        change(&settings)
        return settings
    }
}
