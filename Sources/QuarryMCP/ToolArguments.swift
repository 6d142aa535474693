import QuarryJSON

/// A tool call's `arguments`, checked against the tool's parameters: each
/// problem is a -32602 that names the argument (`arguments.hitsPerPage`,
/// `arguments.queries[1].index`), so a model can fix its call.
public struct ToolArguments: Sendable {
    public let values: JSONObject

    public init(_ arguments: JSON?, parameters: [ToolParameter], path: String = "arguments") throws(MCPError) {
        let object: JSONObject
        switch arguments {
        case nil, .null?: object = [:]
        case .object(let given)?: object = given
        case let other?: throw .invalidArgument(path, "must be an object, not \(other.kindName)")
        }
        for name in object.keys where !parameters.contains(where: { $0.name == name }) {
            let known = parameters.map(\.name).joined(separator: ", ")
            throw .invalidArgument("\(path).\(name)", "unknown argument; this tool takes \(known.isEmpty ? "none" : known)")
        }
        for parameter in parameters {
            let location = "\(path).\(parameter.name)"
            guard let value = object[parameter.name], !value.isNull else {
                if parameter.required { throw .invalidArgument(location, "is required") }
                continue
            }
            try Self.check(value, parameter.kind, location)
        }
        values = object
    }

    public func string(_ name: String) -> String? { values[name]?.stringValue }
    public func int(_ name: String) -> Int? { values[name]?.intValue }
    public subscript(name: String) -> JSON? { values[name].flatMap { $0.isNull ? nil : $0 } }

    /// The string a required parameter holds (checked at init).
    public func required(_ name: String) -> String { values[name]?.stringValue ?? "" }

    private static func check(_ value: JSON, _ kind: ToolParameter.Kind, _ location: String) throws(MCPError) {
        switch kind {
        case .string:
            guard value.stringValue != nil else { throw .invalidArgument(location, "must be a string, not \(value.kindName)") }
        case .integer(let minimum, let maximum):
            guard let number = value.intValue else { throw .invalidArgument(location, "must be an integer, not \(value.kindName)") }
            guard number >= minimum, maximum.map({ number <= $0 }) ?? true else {
                throw .invalidArgument(location, "must be between \(minimum) and \(maximum.map(String.init) ?? "any"), not \(number)")
            }
        case .strings(let minItems, let maxItems):
            let items = try array(value, minItems, maxItems, location)
            for (offset, item) in items.enumerated() where item.stringValue == nil {
                throw .invalidArgument("\(location)[\(offset)]", "must be a string, not \(item.kindName)")
            }
        case .records(let minItems, let maxItems):
            let items = try array(value, minItems, maxItems, location)
            for (offset, item) in items.enumerated() where item.objectValue == nil {
                throw .invalidArgument("\(location)[\(offset)]", "must be an object, not \(item.kindName)")
            }
        case .object:
            guard value.objectValue != nil else { throw .invalidArgument(location, "must be an object, not \(value.kindName)") }
        case .objects(let parameters, let minItems, let maxItems):
            let items = try array(value, minItems, maxItems, location)
            for (offset, item) in items.enumerated() {
                _ = try ToolArguments(item, parameters: parameters, path: "\(location)[\(offset)]")
            }
        }
    }

    private static func array(_ value: JSON, _ minItems: Int, _ maxItems: Int, _ location: String) throws(MCPError) -> [JSON] {
        guard let items = value.arrayValue else { throw .invalidArgument(location, "must be an array, not \(value.kindName)") }
        guard items.count >= minItems, items.count <= maxItems else {
            throw .invalidArgument(location, "must have \(minItems) to \(maxItems) items, not \(items.count)")
        }
        return items
    }
}
