import QuarryJSON

/// One MCP tool as `tools/list` describes it.
public struct Tool: Sendable {
    public var name: String
    public var title: String
    public var description: String
    public var parameters: [ToolParameter]
    public var outputSchema: JSON
    /// Changes records: listed and callable only under `quarry mcp --allow-writes`.
    public var writes: Bool
    public var readOnly: Bool { !writes }

    public var inputSchema: JSON { ToolParameter.objectSchema(parameters) }

    public var json: JSON {
        [
            "name": .string(name), "title": .string(title), "description": .string(description),
            "inputSchema": inputSchema, "outputSchema": outputSchema,
            "annotations": ["readOnlyHint": .bool(readOnly), "destructiveHint": .bool(writes),
                            "idempotentHint": .bool(readOnly), "openWorldHint": false],
        ]
    }
}
