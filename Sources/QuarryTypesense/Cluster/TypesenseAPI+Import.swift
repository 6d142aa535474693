import QuarryJSON

extension TypesenseAPI {
    /// `POST /collections/{c}/documents/import?action=…` with one JSONL line per document.
    /// Idempotent unless `action` is `.create`. Failed lines do not fail the call: see `ImportResult`.
    /// `parameters` adds query parameters (`batch_size`, `dirty_values`).
    public func importDocuments(_ documents: [JSONObject], collection: String, action: ImportAction,
                                parameters: JSONObject? = nil) throws(TypesenseError) -> ImportResult {
        var writer = JSONWriter(reservingCapacity: documents.count * 256)
        for document in documents {
            writer.write(.object(document))
            writer.writeRaw("\n")
        }
        return try importJSONL(writer.bytes, collection: collection, action: action, parameters: parameters)
    }

    /// `importDocuments` with the JSONL body already written (one document per line).
    public func importJSONL(_ jsonl: [UInt8], collection: String, action: ImportAction,
                            parameters: JSONObject? = nil) throws(TypesenseError) -> ImportResult {
        var query: JSONObject = ["action": .string(action.rawValue)]
        for (name, value) in parameters ?? [:] { query[name] = value }
        let response = try cluster.send(TypesenseRequest(
            .post, TypesenseRequest.path("collections", collection, "documents", "import"), query: query, body: jsonl,
            contentType: "text/plain", kind: action.requestKind, timeout: max(cluster.options.writeTimeout, 300)))
        return try Self.importResult(response.body)
    }

    /// One `{"success": …}` line per document, in order.
    static func importResult(_ body: [UInt8]) throws(TypesenseError) -> ImportResult {
        var result = ImportResult()
        for (line, text) in JSONLines.split(body).enumerated() {
            guard let status = (try? JSONParser.parse(text))?.objectValue, let success = status["success"]?.boolValue else {
                throw .invalidResponse("import: line \(line) of the answer is not a status")
            }
            if success {
                result.succeeded += 1
                continue
            }
            result.failed += 1
            if result.failures.count < ImportResult.reportedFailures {
                result.failures.append(ImportFailure(
                    line: line, code: status["code"]?.intValue, error: status["error"]?.stringValue ?? "failed",
                    document: status["document"]?.stringValue))
            }
        }
        return result
    }
}
