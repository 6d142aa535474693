import QuarryFilters
import QuarrySearchContract

/// Turns a filter expression into Typesense `filter_by` (or says no record or every record
/// passes). `FilterTranslator.translate` is the real one; a closure keeps the search translation
/// testable with a stub.
public typealias FilterRendering = @Sendable (FilterExpression) throws(BackendError) -> TypesenseFilter
