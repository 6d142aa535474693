import QuarryJSON

/// One argument of a tool: where its `inputSchema` property comes from and
/// what `ToolArguments` checks, so the schema and the checks cannot drift.
public struct ToolParameter: Sendable {
    public indirect enum Kind: Sendable {
        case string
        case integer(minimum: Int, maximum: Int?)
        case strings(minItems: Int, maxItems: Int)
        case records(minItems: Int, maxItems: Int)
        case object
        case objects(of: [ToolParameter], minItems: Int, maxItems: Int)
    }

    public var name: String
    public var kind: Kind
    public var required: Bool
    public var description: String

    public init(_ name: String, _ kind: Kind, required: Bool = false, _ description: String) {
        self.name = name
        self.kind = kind
        self.required = required
        self.description = description
    }

    /// The JSON Schema of this argument's value.
    public var schema: JSON {
        var object: JSONObject
        switch kind {
        case .string:
            object = ["type": "string"]
        case .integer(let minimum, let maximum):
            object = ["type": "integer", "minimum": JSON(minimum)]
            if let maximum { object["maximum"] = JSON(maximum) }
        case .strings(let minItems, let maxItems):
            object = ["type": "array", "items": ["type": "string"], "minItems": JSON(minItems), "maxItems": JSON(maxItems)]
        case .records(let minItems, let maxItems):
            object = ["type": "array", "items": ["type": "object"], "minItems": JSON(minItems), "maxItems": JSON(maxItems)]
        case .object:
            object = ["type": "object"]
        case .objects(let parameters, let minItems, let maxItems):
            object = ["type": "array", "items": ToolParameter.objectSchema(parameters),
                      "minItems": JSON(minItems), "maxItems": JSON(maxItems)]
        }
        object["description"] = .string(description)
        return .object(object)
    }

    /// An object schema with these properties, the required ones listed, and no others allowed.
    public static func objectSchema(_ parameters: [ToolParameter]) -> JSON {
        var properties = JSONObject()
        for parameter in parameters { properties[parameter.name] = parameter.schema }
        var object: JSONObject = ["type": "object", "properties": .object(properties), "additionalProperties": false]
        let required = parameters.filter(\.required).map { JSON.string($0.name) }
        if !required.isEmpty { object["required"] = .array(required) }
        return .object(object)
    }
}
