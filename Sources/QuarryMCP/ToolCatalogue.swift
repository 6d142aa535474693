import QuarryJSON

/// Every tool `quarry mcp` offers, in the order `tools/list` gives them.
public enum ToolCatalogue {
    /// The tools listed and callable: the writing ones only with `--allow-writes`.
    public static func tools(allowWrites: Bool) -> [Tool] {
        all.filter { allowWrites || !$0.writes }
    }

    public static let all: [Tool] = [
        Tool(name: "list_indices", title: "List indices",
             description: "Lists the user's search indices: name, record count, searchable attributes, facets and replicas.",
             parameters: [], outputSchema: OutputSchemas.listIndices, writes: false),
        Tool(name: "search", title: "Search an index",
             description: """
                 Searches one index (typo-tolerant, prefix matching) and answers the page's hits, long fields cut \
                 to a snippet around the match, with facet counts when asked. Filters use Algolia syntax, e.g. \
                 `tags:climate AND duration > 600` (attributes must be facets; see list_indices).
                 """,
             parameters: searchParameters, outputSchema: OutputSchemas.search, writes: false),
        Tool(name: "multi_search", title: "Search several indices",
             description: "Runs several searches at once (each as the search tool takes it) and answers each one's hits.",
             parameters: [ToolParameter("queries", .objects(of: searchParameters, minItems: 1, maxItems: 10), required: true,
                                        "The searches, 1 to 10; the reply budget is shared between them.")],
             outputSchema: OutputSchemas.multiSearch, writes: false),
        Tool(name: "facet_values", title: "Search a facet's values",
             description: "Finds the values of one facet that match facetQuery, with how many records hold each (within query and filters).",
             parameters: [
                 index,
                 ToolParameter("facet", .string, required: true, "The facet attribute; it must be searchable(...) in attributesForFaceting."),
                 ToolParameter("facetQuery", .string, "Text the values must match (prefix, typo-tolerant). Empty: every value."),
                 ToolParameter("query", .string, "Count only records matching this query."),
                 ToolParameter("filters", .string, "Count only records these filters keep (Algolia syntax)."),
                 ToolParameter("maxFacetHits", .integer(minimum: 1, maximum: 100), "How many values, 1 to 100 (default 10)."),
             ],
             outputSchema: OutputSchemas.facetValues, writes: false),
        Tool(name: "get_objects", title: "Read records by id",
             description: "Reads records by objectID, whole unless attributesToRetrieve says otherwise.",
             parameters: [
                 index,
                 ToolParameter("objectIDs", .strings(minItems: 1, maxItems: 100), required: true, "The records' objectIDs, 1 to 100."),
                 attributesToRetrieve,
             ],
             outputSchema: OutputSchemas.getObjects, writes: false),
        Tool(name: "browse", title: "Browse every record",
             description: "Reads an index's records in the order they were first saved, page by page: pass the cursor of one reply to get the next page.",
             parameters: [
                 index,
                 ToolParameter("cursor", .string, "The cursor of the previous page; with it, give no query or filters."),
                 ToolParameter("query", .string, "Only records matching this query."),
                 ToolParameter("filters", .string, "Only records these filters keep (Algolia syntax)."),
                 ToolParameter("hitsPerPage", .integer(minimum: 1, maximum: 1000), "Records per page, 1 to 1000 (default 20)."),
                 attributesToRetrieve,
             ],
             outputSchema: OutputSchemas.browse, writes: false),
        Tool(name: "index_settings", title: "Read an index's settings",
             description: "Answers an index's settings (Algolia's names): searchable attributes, facets, ranking, replicas.",
             parameters: [index], outputSchema: OutputSchemas.settings, writes: false),
        Tool(name: "list_sessions", title: "List search sessions",
             description: "Lists the user's live search sessions (the pickers and scripts sharing a search), with how many frontends are attached.",
             parameters: [], outputSchema: OutputSchemas.listSessions, writes: false),
        Tool(name: "read_session", title: "Read what a session shows",
             description: "Answers what a named search session shows now: its query, its filters, its top hits and facet counts.",
             parameters: [session], outputSchema: OutputSchemas.sessionView, writes: false),
        Tool(name: "show_in_session", title: "Show a search in a session",
             description: """
                 Sets a named session's query and/or filters, so every frontend attached to it (the user's picker \
                 too) shows that search; answers what the session now shows. A session that does not exist is \
                 created on `index`.
                 """,
             parameters: [
                 session,
                 ToolParameter("query", .string, "The query to show; absent keeps the session's."),
                 ToolParameter("filters", .string, """
                     The filters to show, in Algolia syntax (AND of facet/numeric/tag conditions, each maybe an OR of \
                     one kind); "" clears them; absent keeps the session's.
                     """),
                 ToolParameter("index", .string, "The index to search when the session does not exist yet."),
             ],
             outputSchema: OutputSchemas.sessionView, writes: false),
        Tool(name: "save_objects", title: "Add or replace records",
             description: "Adds records to an index (created if absent); a record whose objectID exists is replaced.",
             parameters: [index, ToolParameter("objects", .records(minItems: 1, maxItems: 1000), required: true, "The records, 1 to 1000.")],
             outputSchema: OutputSchemas.write, writes: true),
        Tool(name: "delete_objects", title: "Delete records",
             description: "Deletes records by objectID.",
             parameters: [index, ToolParameter("objectIDs", .strings(minItems: 1, maxItems: 1000), required: true, "The objectIDs, 1 to 1000.")],
             outputSchema: OutputSchemas.write, writes: true),
        Tool(name: "import_file", title: "Import a file into an index",
             description: "Imports a JSON, NDJSON or CSV file of records into an index (created if absent), all or nothing.",
             parameters: [
                 index,
                 ToolParameter("path", .string, required: true, "An absolute path the daemon can read."),
                 ToolParameter("format", .string, "json, ndjson or csv; default from the extension."),
                 ToolParameter("settings", .object, "Settings to apply in the same transaction (Algolia's names)."),
             ],
             outputSchema: OutputSchemas.importFile, writes: true),
    ]

    public static func tool(named name: String, allowWrites: Bool) -> Tool? {
        tools(allowWrites: allowWrites).first { $0.name == name }
    }

    static let index = ToolParameter("index", .string, required: true, "The index name (see list_indices).")
    static let session = ToolParameter("session", .string, required: true, "The session's name (see list_sessions).")
    static let attributesToRetrieve = ToolParameter(
        "attributesToRetrieve", .strings(minItems: 1, maxItems: 100), "Only these attributes (objectID always comes).")

    static let searchParameters: [ToolParameter] = [
        index,
        ToolParameter("query", .string, "The text to search for; empty matches every record."),
        ToolParameter("filters", .string, "Algolia filter syntax, e.g. `tags:climate AND year >= 2010`."),
        ToolParameter("facets", .strings(minItems: 1, maxItems: 20), "Facet attributes to count (at most 10 values each)."),
        ToolParameter("page", .integer(minimum: 0, maximum: nil), "The page, from 0."),
        ToolParameter("hitsPerPage", .integer(minimum: 1, maximum: 100), "Hits per page, 1 to 100 (default 10)."),
        attributesToRetrieve,
    ]
}
