import QuarryFilters
import QuarryJSON
import QuarryProtocol
import QuarrySession

/// The session methods: thin translations between the wire types and
/// `QuarrySession`. Changes run inline on the connection's queue and wait for
/// the session's queue, so one connection's changes apply in its order, and
/// `stateChanged` is sent before the reply (protocol/README.md "Sharing model").
extension Server {
    func openSession(_ request: OpenSessionRequest, _ context: RequestContext) throws(ResponseError) -> OpenSessionRequest.Response {
        let kinds = request.searchers.map(\.kind)
        for (position, spec) in request.searchers.enumerated() {
            try sessionCall(OpenSessionRequest.self) { () throws(SessionError) in
                do throws(SessionError) { _ = try sessionBackend.settings(index: spec.index) } catch {
                    throw .invalidParameter("searchers[\(position)].index", "an existing index: '\(spec.index)' does not exist")
                }
            }
        }
        let subscriber = context.connection.subscriber
        let (session, created) = sessions.open(request.session, for: subscriber)
        var ids: [String] = []
        var snapshot = session.snapshot()
        if created && !kinds.isEmpty {
            (ids, snapshot) = try sessionCall(OpenSessionRequest.self) { () throws(SessionError) in
                try session.change { state, _ in kinds.map { state.addSearcher($0) } }
            }
        }
        context.connection.queue.async { session.sendLatestResults(to: subscriber) }  // after this reply
        return .init(snapshot: snapshot.json, created: created, searchers: ids)
    }

    func closeSession(_ request: CloseSessionRequest, _ context: RequestContext) throws(ResponseError) -> CloseSessionRequest.Response {
        let detached = try sessionCall(CloseSessionRequest.self) { () throws(SessionError) in
            try sessions.close(request.session, for: context.connection.subscriber)
        }
        return .init(session: request.session, detached: detached)
    }

    func listSessions(_ request: ListSessionsRequest, _ context: RequestContext) throws(ResponseError) -> JSONResponse {
        JSONResponse(["sessions": .array(sessions.list())])
    }

    func getState(_ request: GetStateRequest, _ context: RequestContext) throws(ResponseError) -> JSONResponse {
        let session = try sessionCall(GetStateRequest.self) { () throws(SessionError) in try sessions.session(request.session) }
        return JSONResponse(.object(session.snapshot().json))
    }

    func addHitsSearcher(_ request: AddHitsSearcherRequest, _ context: RequestContext) throws(ResponseError) -> SessionChangeResponse {
        try changeAddingSearcher(request, { state, backend throws(SessionError) in
            _ = try backend.settings(index: request.searcher.index)
            return state.addSearcher(SearcherSpec.hits(request.searcher).kind)
        })
    }

    func addFacetsSearcher(_ request: AddFacetsSearcherRequest, _ context: RequestContext) throws(ResponseError) -> SessionChangeResponse {
        try changeAddingSearcher(request, { state, backend throws(SessionError) in
            _ = try backend.settings(index: request.searcher.index)
            return state.addSearcher(SearcherSpec.facets(request.searcher).kind)
        })
    }

    func removeSearcher(_ request: RemoveSearcherRequest, _ context: RequestContext) throws(ResponseError) -> SessionChangeResponse {
        try change(request) { state, _ throws(SessionError) in try state.removeSearcher(request.searcher) }
    }

    func setQuery(_ request: SetQueryRequest, _ context: RequestContext) throws(ResponseError) -> SessionChangeResponse {
        try change(request) { state, _ in state.query = request.query }
    }

    func toggleFilter(_ request: ToggleFilterRequest, _ context: RequestContext) throws(ResponseError) -> SessionChangeResponse {
        let atom = request.filter.atom
        let group = FilterGroupID.group(named: request.group.name, join: request.group.join, for: atom)
        let mode: SelectionMode = request.selectionMode == .single ? .single : .multiple
        let items = request.items?.map(\.atom)
        return try change(request) { state, _ throws(SessionError) in
            try state.filters.select(atom, in: group, mode: mode, items: items)
        }
    }

    func setFilters(_ request: SetFiltersRequest, _ context: RequestContext) throws(ResponseError) -> SessionChangeResponse {
        try change(request) { state, _ throws(SessionError) in
            if let group = request.group {
                try Self.replace(group, in: &state.filters, path: "filters")
            } else {
                state.filters.clearAll()
                for (position, group) in request.groups.enumerated() {
                    try Self.replace(group, in: &state.filters, path: "groups[\(position)].filters")
                }
            }
        }
    }

    /// An or-group's type comes from its filters; an empty or-group clears every or-group of that name.
    private static func replace(_ group: SetFiltersRequest.Group, in filters: inout FilterState, path: String) throws(SessionError) {
        let atoms = group.filters.map(\.atom)
        let name = group.reference.name
        guard group.reference.join == .or else { return try filters.replace(.and(name), with: atoms) }
        let kinds = Set(atoms.map(\.kind))
        guard kinds.count <= 1 else { throw .invalidParameter(path, "filters of one type (facet, numeric or tag) in an or-group") }
        guard let kind = kinds.first else {
            return filters.clear { if case .or(name, _) = $0 { true } else { false } }
        }
        try filters.replace(.or(name, kind), with: atoms)
    }

    func clearFilters(_ request: ClearFiltersRequest, _ context: RequestContext) throws(ResponseError) -> SessionChangeResponse {
        try change(request) { state, _ in
            if let groups = request.groups {
                state.filters.clear { group in groups.contains { $0.matches(group) } }
            } else if let except = request.except {
                state.filters.clear { group in !except.contains { $0.matches(group) } }
            } else {
                state.filters.clearAll()
            }
        }
    }

    func toggleRelevantSort(_ request: ToggleRelevantSortRequest, _ context: RequestContext) throws(ResponseError) -> SessionChangeResponse {
        try change(request) { state, backend throws(SessionError) in
            let index = try state.hitsSearcher(request.searcher).index
            guard let indexDefault = try RelevantSort.virtualReplicaDefault(index: index, backend: backend) else {
                throw .invalidParameter("searcher", "a hits searcher on a virtual replica: index '\(index)' is not a virtual replica, so it has no relevant sort to toggle")
            }
            try state.updateHitsSearcher(request.searcher) { hits in
                hits.relevancyStrictness = RelevantSort.toggled(hits.relevancyStrictness, indexDefault: indexDefault)
            }
        }
    }

    func setIndex(_ request: SetIndexRequest, _ context: RequestContext) throws(ResponseError) -> SessionChangeResponse {
        try change(request) { state, backend throws(SessionError) in
            _ = try backend.settings(index: request.index)
            try state.updateHitsSearcher(request.searcher) { hits in
                hits.index = request.index
                hits.relevancyStrictness = nil
            }
        }
    }

    func setHierarchicalFilter(_ request: SetHierarchicalFilterRequest, _ context: RequestContext) throws(ResponseError) -> SessionChangeResponse {
        try change(request) { state, _ throws(SessionError) in
            try state.selectHierarchical(name: request.name, attributes: request.attributes,
                                         separator: request.separator ?? HierarchicalMenu.defaultSeparator, path: request.path)
        }
    }

    /// Runs on the read pool: the page is searched for the version asked, if
    /// the session is still there.
    func loadPage(_ request: LoadPageRequest, _ context: RequestContext) throws(ResponseError) -> JSONResponse {
        let plan = try sessionCall(LoadPageRequest.self) { () throws(SessionError) in
            try sessions.session(request.session).pagePlan(searcher: request.searcher, page: request.page, version: request.stateVersion)
        }
        let result = try sessionCall(LoadPageRequest.self) { () throws(SessionError) -> SearcherResult in
            guard let (searcher, request) = plan.requests.first else { throw .searcherNotFound(request.searcher) }
            return try SearchResults.result(searcher, request, state: plan.state, backend: sessionBackend)
        }
        return JSONResponse(["session": .string(request.session), "stateVersion": JSON(plan.version),
                             "searcher": .string(request.searcher),
                             "result": result.json(in: context.connection.positionEncoding)])
    }

    // MARK: Support

    /// One change to the named session, replied with its new version.
    private func change<Request: RequestType & SessionScoped, T>(
        _ request: Request, _ body: (inout SessionState, any SearchBackend) throws(SessionError) -> T
    ) throws(ResponseError) -> SessionChangeResponse {
        try changeAddingSearcher(request, { state, backend throws(SessionError) -> String? in
            _ = try body(&state, backend)
            return nil
        })
    }

    /// A change that creates a searcher, replied with its id too.
    private func changeAddingSearcher<Request: RequestType & SessionScoped>(
        _ request: Request, _ body: (inout SessionState, any SearchBackend) throws(SessionError) -> String?
    ) throws(ResponseError) -> SessionChangeResponse {
        try sessionCall(Request.self) { () throws(SessionError) -> SessionChangeResponse in
            let (searcher, snapshot) = try sessions.session(request.session).change(body)
            return SessionChangeResponse(session: snapshot.session, stateVersion: snapshot.version, searcher: searcher)
        }
    }

    private func sessionCall<Request: RequestType, T>(
        _ type: Request.Type, _ body: () throws(SessionError) -> T
    ) throws(ResponseError) -> T {
        do {
            return try body()
        } catch {
            throw ResponseError(session: error, method: Request.method)
        }
    }
}

extension ResponseError {
    /// A superseded version is LSP's ContentModified (-32801); a refused
    /// parameter or an unknown session or searcher is -32602; the backend's
    /// errors are mapped as for index methods (`init(backend:)`).
    init(session error: SessionError, method: String) {
        switch error {
        case .superseded(_, let current):
            self = ResponseError(code: .contentModified, message: "content modified: \(error)",
                                 data: ["parameter": "stateVersion", "stateVersion": JSON(current)])
        case .backend(let backendError):
            self = ResponseError(backend: backendError)
        default:
            self = .invalidParams("invalid params for '\(method)': \(error)", parameter: error.parameter)
        }
    }
}

extension SearcherSpec {
    var index: String {
        switch self {
        case .hits(let hits): hits.index
        case .facets(let facets): facets.index
        }
    }

    var kind: Searcher.Kind {
        switch self {
        case .hits(let spec):
            var hits = HitsSearcher(index: spec.index, hitsPerPage: spec.hitsPerPage,
                                    attributesToRetrieve: spec.attributesToRetrieve, attributesToHighlight: spec.attributesToHighlight,
                                    attributesToSnippet: spec.attributesToSnippet,
                                    showItemsOnEmptyQuery: spec.showItemsOnEmptyQuery ?? true, facets: spec.facets ?? [])
            if let order = spec.facetOrder { hits.facetOrder = order.compactMap(FacetOrder.init(rawValue:)) }
            return .hits(hits)
        case .facets(let spec):
            return .facets(FacetsSearcher(index: spec.index, attribute: spec.attribute))
        }
    }
}
