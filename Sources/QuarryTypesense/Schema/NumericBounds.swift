/// Fields for negated numeric filters on records holding several numbers at one path.
///
/// The engine keeps such a record for `NOT x > 5` only when none of its numbers exceeds 5;
/// Typesense tests arrays with "any value", never "every value". The smallest and largest
/// number answer "every" for the one-sided comparisons (`hi_x:<=5`), so a document carries
/// them, with the `FilterKeys.severalNumbers` key, only when it holds two numbers or more.
/// Proposed for `FieldNames`; these names have no single-letter prefix, so
/// `FieldNames.attribute(ofField:)` treats them as fixed fields.
public enum NumericBounds {
    /// The smallest number at `path` (float).
    public static func lowest(_ path: String) -> String { "lo_" + FieldNames.encode(path) }
    /// The largest number at `path` (float).
    public static func highest(_ path: String) -> String { "hi_" + FieldNames.encode(path) }
}
