import QuarryJSON

/// The `state` every `stateChanged` and `getState` carries.
extension SessionState {
    public var json: JSON {
        [
            "query": .string(query),
            "filters": .string(filters.rendered()),
            "filterGroups": .array(filters.orderedGroupIDs.map(groupJSON)),
            "hierarchicalMenus": .array(orderedMenus.map { menu in
                var object: JSONObject = ["name": .string(menu.name)]
                object.merge(menu.json(path: menu.path(in: filters)).objectValue ?? [:]) { first, _ in first }
                return .object(object)
            }),
            "searchers": .array(searchers.map(\.json)),
        ]
    }

    private func groupJSON(_ group: FilterGroupID) -> JSON {
        var object: JSONObject = ["name": .string(group.name), "operator": .string(group.operatorName)]
        if case .or(_, let kind) = group { object["type"] = .string(kind.rawValue) }
        object["filters"] = .array(filters.filters(in: group).sorted(by: FilterState.renderOrder).map(\.json))
        object["rendered"] = filters.renderedGroup(group).map(JSON.string) ?? .null
        return .object(object)
    }
}

extension Searcher {
    public var json: JSON {
        switch kind {
        case .hits(let hits):
            var object: JSONObject = ["searcher": .string(id), "type": "hits", "index": .string(hits.index)]
            if let value = hits.hitsPerPage { object["hitsPerPage"] = JSON(value) }
            if let value = hits.attributesToRetrieve { object["attributesToRetrieve"] = .array(value.map(JSON.string)) }
            if let value = hits.attributesToHighlight { object["attributesToHighlight"] = .array(value.map(JSON.string)) }
            if let value = hits.attributesToSnippet { object["attributesToSnippet"] = .array(value.map(JSON.string)) }
            object["showItemsOnEmptyQuery"] = .bool(hits.showItemsOnEmptyQuery)
            object["facets"] = .array(hits.facets.map(JSON.string))
            object["facetOrder"] = .array(hits.facetOrder.map { .string($0.rawValue) })
            object["relevancyStrictness"] = hits.relevancyStrictness.map(JSON.init) ?? .null
            return .object(object)
        case .facets(let facets):
            return ["searcher": .string(id), "type": "facets", "index": .string(facets.index), "attribute": .string(facets.attribute)]
        }
    }
}
