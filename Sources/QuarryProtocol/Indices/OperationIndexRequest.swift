/// `operationIndex` {index, operation: "copy"|"move", destination, scope?}:
/// Algolia's index copy and move. The destination is replaced in one write
/// (created when missing); a move then deletes the source. `scope` (copy
/// only) copies just the named parts and leaves the destination's records
/// alone; Quarry has no synonyms or rules, so only "settings" copies anything.
public struct OperationIndexRequest: RequestType {
    public static let method = "operationIndex"
    public typealias Response = WriteResponse

    public enum Operation: String, Sendable {
        case copy
        case move
    }

    public enum Scope: String, Sendable, CaseIterable {
        case settings
        case synonyms
        case rules
    }

    public var index: String
    public var operation: Operation
    public var destination: String
    /// nil: everything (records and settings).
    public var scope: Set<Scope>?

    public init(params: Params) throws(ResponseError) {
        index = try params.indexName()
        guard let operation = try params.oneOf("operation", ["copy": Operation.copy, "move": .move]) else {
            throw params.fail("operation", expected: "\"copy\" or \"move\"", got: params.object["operation"])
        }
        self.operation = operation
        destination = try params.indexName("destination")
        guard destination != index else {
            throw .invalidParams(
                "invalid params for '\(Self.method)': 'destination' must name an index other than the source '\(index)'",
                parameter: "destination")
        }
        if params.object["scope"] != nil, params.object["scope"]?.isNull == false {
            var scope: Set<Scope> = []
            for (offset, name) in try params.strings("scope").enumerated() {
                guard let part = Scope(rawValue: name) else {
                    throw params.fail("scope[\(offset)]", expected: "\"settings\", \"synonyms\" or \"rules\"", got: .string(name))
                }
                scope.insert(part)
            }
            guard operation == .copy else {
                throw params.fail("scope", expected: "absent for a move (a move takes the whole index)", got: params.object["scope"])
            }
            self.scope = scope
        }
    }
}

/// Both indices' writes are ordered by it.
extension OperationIndexRequest: IndexScoped {
    public var otherIndex: String? { destination }
}
