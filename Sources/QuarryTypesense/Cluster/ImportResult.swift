/// How Typesense's import treats a document whose id exists (or not).
public enum ImportAction: String, Sendable {
    /// Fails for an existing id. Not idempotent.
    case create
    /// Replaces the whole document, or creates it. Idempotent.
    case upsert
    /// Sets the given fields of an existing document; fails for a missing one. Idempotent.
    case update
    /// `update` for an existing document, `create` otherwise. Idempotent.
    case emplace

    var requestKind: TypesenseRequest.Kind { self == .create ? .write : .idempotentWrite }
}

/// What an import did, line by line: Typesense answers 200 even when some lines failed.
public struct ImportResult: Sendable, Equatable {
    public var succeeded: Int
    public var failed: Int
    /// The first failures, at most `ImportResult.reportedFailures`, in line order.
    public var failures: [ImportFailure]

    public static let reportedFailures = 10

    public init(succeeded: Int = 0, failed: Int = 0, failures: [ImportFailure] = []) {
        self.succeeded = succeeded
        self.failed = failed
        self.failures = failures
    }
}

public struct ImportFailure: Sendable, Equatable {
    /// The document's position in the batch, from 0.
    public var line: Int
    /// Typesense's status for the line (400 invalid, 404 missing for `update`, 409 existing for `create`).
    public var code: Int?
    public var error: String
    /// The document's JSON text as Typesense echoes it.
    public var document: String?

    public init(line: Int, code: Int?, error: String, document: String?) {
        self.line = line
        self.code = code
        self.error = error
        self.document = document
    }
}
