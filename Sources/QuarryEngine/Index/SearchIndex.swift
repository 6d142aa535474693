// TEMPORARY STAND-IN, replaced at merge by the search half's real index.
// It implements the agreed public contract with a naive linear scan so the
// storage/engine half compiles and its tests run; nothing here is meant to last.
import QuarryJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public typealias DocID = UInt32

public protocol RecordSource: Sendable { func record(_ id: DocID) -> JSONObject? }

public enum PositionEncoding: String, Sendable { case utf8 = "utf-8", utf16 = "utf-16" }

public struct SearchParameters: Sendable {
    var query: String
    var page: Int
    var hitsPerPage: Int

    public init(json: JSONObject, settings: IndexSettings, positionEncoding: PositionEncoding = .utf16) throws(EngineError) {
        guard let query = json["query"].map({ $0.stringValue }) ?? "" else {
            throw .invalidParameter(name: "query", expected: "a string")
        }
        self.query = query
        page = json["page"]?.intValue ?? 0
        hitsPerPage = json["hitsPerPage"]?.intValue ?? settings.hitsPerPage
    }
}

public struct SearchResponse: Sendable {
    var object: JSONObject
    public func json() -> JSON { .object(object) }
}

/// Stand-in: keeps every record in memory; a hit is a record where each query
/// word is a prefix of some word of its string values.
public final class SearchIndex: Sendable {
    let documents: [DocID: JSONObject]

    init(documents: [DocID: JSONObject]) { self.documents = documents }

    public static func build(settings: IndexSettings, records: some Sequence<(DocID, JSONObject)>) -> SearchIndex {
        SearchIndex(documents: Dictionary(records.map { ($0.0, $0.1) }, uniquingKeysWith: { _, last in last }))
    }

    public func updating(upserts: [(DocID, JSONObject)], deletions: [DocID]) -> SearchIndex {
        var documents = documents
        for id in deletions { documents[id] = nil }
        for (id, record) in upserts { documents[id] = record }
        return SearchIndex(documents: documents)
    }

    public var documentCount: Int { documents.count }

    struct StandInFileError: Error { var reason: String }

    public func write(to path: String, generation: UInt64) throws {
        let entries = documents.keys.sorted().map { JSON.array([.int(Int64($0)), .object(documents[$0] ?? [:])]) }
        let body: JSON = ["format": "stand-in-1", "generation": .int(Int64(generation)), "documents": .array(entries)]
        let bytes = JSONWriter.encode(body)
        guard let file = fopen(path, "wb") else { throw StandInFileError(reason: "cannot create \(path)") }
        defer { fclose(file) }
        guard fwrite(bytes, 1, bytes.count, file) == bytes.count else { throw StandInFileError(reason: "short write") }
    }

    public static func read(from path: String, settings: IndexSettings) throws -> (index: SearchIndex, generation: UInt64) {
        guard let file = fopen(path, "rb") else { throw StandInFileError(reason: "cannot open \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        let json = try JSONParser.parse(bytes)
        guard json["format"]?.stringValue == "stand-in-1" else { throw StandInFileError(reason: "format version mismatch") }
        guard let generation = json["generation"]?.intValue, let entries = json["documents"]?.arrayValue else {
            throw StandInFileError(reason: "missing fields")
        }
        var documents: [DocID: JSONObject] = [:]
        for entry in entries {
            guard let id = entry.arrayValue?.first?.intValue, let record = entry.arrayValue?.last?.objectValue else {
                throw StandInFileError(reason: "bad entry")
            }
            documents[DocID(truncatingIfNeeded: id)] = record
        }
        return (SearchIndex(documents: documents), UInt64(generation))
    }

    public func search(_ parameters: SearchParameters, records: RecordSource) throws(EngineError) -> SearchResponse {
        let words = Self.words(parameters.query)
        let matches = documents.keys.sorted().filter { id in
            let text = documents[id].map { Self.words(Self.strings(.object($0)).joined(separator: " ")) } ?? []
            return words.allSatisfy { word in text.contains { $0.hasPrefix(word) } }
        }
        let perPage = max(parameters.hitsPerPage, 1)
        let hits = matches.dropFirst(parameters.page * perPage).prefix(perPage).compactMap { records.record($0) }
        return SearchResponse(object: [
            "hits": .array(hits.map { .object($0) }), "nbHits": JSON(matches.count), "page": JSON(parameters.page),
            "nbPages": JSON((matches.count + perPage - 1) / perPage), "hitsPerPage": JSON(perPage),
            "query": .string(parameters.query),
        ])
    }

    private static func words(_ text: String) -> [String] {
        text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
    }

    private static func strings(_ value: JSON) -> [String] {
        switch value {
        case .string(let s): [s]
        case .array(let a): a.flatMap(strings)
        case .object(let o): o.values.flatMap(strings)
        default: []
        }
    }
}
