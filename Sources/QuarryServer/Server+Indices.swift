import QuarryBackend
import QuarryJSON
import QuarryProtocol
import QuarrySearchContract

/// The index-management and one-shot search methods: thin translations
/// between the wire types and the backend (the engine, or a cluster).
extension Server {
    func saveObjects(_ request: SaveObjectsRequest, _ context: RequestContext) throws(ResponseError) -> WriteResponse {
        let receipt = try backendCall { () throws(BackendError) in try backend.saveObjects(request.objects, index: request.index) }
        return WriteResponse(objectIDs: receipt.objectIDs, taskID: receipt.taskID)
    }

    func partialUpdateObjects(_ request: PartialUpdateObjectsRequest, _ context: RequestContext) throws(ResponseError) -> WriteResponse {
        let receipt = try backendCall { () throws(BackendError) in
            try backend.partialUpdateObjects(request.objects, index: request.index, createIfNotExists: request.createIfNotExists)
        }
        return WriteResponse(objectIDs: receipt.objectIDs, taskID: receipt.taskID)
    }

    func deleteObjects(_ request: DeleteObjectsRequest, _ context: RequestContext) throws(ResponseError) -> WriteResponse {
        let receipt = try backendCall { () throws(BackendError) in try backend.deleteObjects(request.objectIDs, index: request.index) }
        return WriteResponse(objectIDs: receipt.objectIDs, taskID: receipt.taskID)
    }

    func clearObjects(_ request: ClearObjectsRequest, _ context: RequestContext) throws(ResponseError) -> WriteResponse {
        let receipt = try backendCall { () throws(BackendError) in try backend.clearObjects(index: request.index) }
        return WriteResponse(objectIDs: nil, taskID: receipt.taskID)
    }

    func deleteIndex(_ request: DeleteIndexRequest, _ context: RequestContext) throws(ResponseError) -> WriteResponse {
        let deleted = try backendCall { () throws(BackendError) in try backend.deleteIndex(request.index) }
        guard deleted else { throw suggestingIndex(ResponseError(backend: .indexNotFound(request.index)), for: request.index) }
        return WriteResponse(objectIDs: nil, taskID: 0)
    }

    func operationIndex(_ request: OperationIndexRequest, _ context: RequestContext) throws(ResponseError) -> WriteResponse {
        let copiesAll = request.scope == nil
        let receipt = try backendCall { () throws(BackendError) in
            try backend.copyIndex(request.index, to: request.destination, records: copiesAll,
                                  settings: copiesAll || request.scope?.contains(.settings) == true, move: request.operation == .move)
        }
        return WriteResponse(objectIDs: nil, taskID: receipt.taskID)
    }

    func deleteBy(_ request: DeleteByRequest, _ context: RequestContext) throws(ResponseError) -> WriteResponse {
        let query = try backendCall { () throws(BackendError) in try SearchQuery(json: request.parameters) }
        let receipt = try backendCall { () throws(BackendError) in try backend.deleteBy(index: request.index, query: query) }
        return WriteResponse(objectIDs: nil, taskID: receipt.taskID)
    }

    func setSettings(_ request: SetSettingsRequest, _ context: RequestContext) throws(ResponseError) -> SetSettingsRequest.Response {
        let receipt = try backendCall { () throws(BackendError) in try backend.setSettings(request.settings, index: request.index) }
        return .init(taskID: receipt.taskID, unsupported: receipt.unsupported)
    }

    func getSettings(_ request: GetSettingsRequest, _ context: RequestContext) throws(ResponseError) -> JSONResponse {
        JSONResponse(.object(try backendCall { () throws(BackendError) in try backend.settings(index: request.index) }.json()))
    }

    func getObjects(_ request: GetObjectsRequest, _ context: RequestContext) throws(ResponseError) -> JSONResponse {
        let records = try backendCall { () throws(BackendError) in
            try backend.getObjects(request.objectIDs, index: request.index, attributesToRetrieve: request.attributesToRetrieve)
        }
        return JSONResponse(["results": .array(records.map { $0.map(JSON.object) ?? .null })])
    }

    func browse(_ request: BrowseRequest, _ context: RequestContext) throws(ResponseError) -> JSONResponse {
        let page = try backendCall { () throws(BackendError) in
            let position = try BrowsePosition(cursor: request.cursor, parameters: request.parameters)
            return try backend.browse(index: request.index, from: position, hitsPerPage: request.hitsPerPage,
                                      attributesToRetrieve: request.attributesToRetrieve)
        }
        return JSONResponse(.object(page.json()))
    }

    func listIndices(_ request: ListIndicesRequest, _ context: RequestContext) throws(ResponseError) -> JSONResponse {
        let items = try backendCall { () throws(BackendError) in try backend.listIndices(memory: request.memory) }.map { JSON.object($0.json()) }
        return JSONResponse(["items": .array(items), "nbPages": 1])
    }

    func search(_ request: SearchRequest, _ context: RequestContext) throws(ResponseError) -> JSONResponse {
        let encoding = context.connection.positionEncoding
        return JSONResponse(try backendCall { () throws(BackendError) in
            try backend.search(index: request.index, query: try SearchQuery(json: request.parameters)).json(in: encoding)
        })
    }

    func searchForFacetValues(_ request: SearchForFacetValuesRequest, _ context: RequestContext) throws(ResponseError) -> JSONResponse {
        JSONResponse(.object(try backendCall { () throws(BackendError) in
            let query = try FacetValueQuery(attribute: request.attribute, json: request.parameters)
            return try backend.searchForFacetValues(index: request.index, query: query).json
        }))
    }

    func importFile(_ request: ImportFileRequest, _ context: RequestContext) throws(ResponseError) -> JSONResponse {
        let token = request.workDoneToken ?? context.id.json
        let progressKey = "progress:\(JSONWriter.string(token))"
        context.notify(ProgressNotification(token: token, kind: .begin, title: "Importing into '\(request.index)'", percentage: 0))
        let format = request.format.flatMap { ImportFormat(rawValue: $0.rawValue) }
        let receipt: ImportReceipt
        do throws(ResponseError) {
            receipt = try backendCall { () throws(BackendError) in
                try backend.importRecords(
                    index: request.index, from: request.path, format: format, settings: request.settings,
                    skipInvalid: request.skipInvalid,
                    progress: { progress in
                        context.notify(ProgressNotification(token: token, progress: progress), coalescingKey: progressKey)
                    },
                    isCancelled: { context.token.isCancelled })
            }
        } catch {
            context.notify(ProgressNotification(token: token, kind: .end, message: "failed: \(error.message)"))
            throw error  // a cancelled import already arrives as -32800 (BackendError.cancelled)
        }
        context.notify(ProgressNotification(
            token: token, kind: .end, message: "imported \(receipt.imported) records", percentage: 100,
            details: ["records": JSON(receipt.imported), "skipped": JSON(receipt.skipped)]))
        return JSONResponse(.object(receipt.json()))
    }

    private func backendCall<T>(_ body: () throws(BackendError) -> T) throws(ResponseError) -> T {
        do {
            return try body()
        } catch {
            guard case .indexNotFound(let name) = error else { throw ResponseError(backend: error) }
            throw suggestingIndex(ResponseError(backend: error), for: name)
        }
    }

    /// `error` about the missing index `name`, with the closest existing name when one is close
    /// (in the message and as `data.didYouMean`).
    private func suggestingIndex(_ error: ResponseError, for name: String) -> ResponseError {
        guard let names = try? backend.listIndices(memory: false).map(\.name),
              let suggestion = NameSuggestion.closest(to: name, among: names)
        else { return error }
        var suggested = error
        suggested.message += "; did you mean '\(suggestion)'?"
        var data = error.data?.objectValue ?? [:]
        data["didYouMean"] = .string(suggestion)
        suggested.data = .object(data)
        return suggested
    }
}

extension ProgressNotification {
    init(token: JSON, progress: ImportProgress) {
        let percentage = progress.totalBytes > 0 ? Int(progress.bytesRead * 100 / progress.totalBytes) : 0
        self.init(token: token, kind: .report, message: "\(progress.records) records", percentage: min(99, percentage),
                  details: ["records": JSON(progress.records), "skipped": JSON(progress.skipped),
                            "bytes": .int(progress.bytesRead), "totalBytes": .int(progress.totalBytes)])
    }
}
