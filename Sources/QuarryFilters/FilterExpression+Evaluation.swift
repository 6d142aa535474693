/// Deciding whether one record passes a filter: the engine's hook.
///
/// - A facet filter matches when any value at the attribute has the same text
///   ignoring case (numbers as their shortest text, booleans as `true` and
///   `false`), or when both sides are numbers of equal value: `price:10`
///   matches `10`, `10.0` and `"10"`; `inStock:true` matches `true` and `"true"`.
/// - A tag matches a value in `_tags` with exactly the same text.
/// - Numeric comparisons and ranges only match numeric values (not numeric
///   strings); `price != 10` needs a price that is a number other than 10,
///   while `NOT price = 10` also keeps records without a price.
/// - NOT negates the whole atom: `NOT color:red` keeps records with no red
///   among their colours, including records with no colour.
///
/// To test many records against one expression, make a `FilterMatcher` once:
/// these conveniences prepare the expression again on every call.
extension FilterExpression {
    public func matches(_ record: some FilterableRecord) -> Bool {
        FilterMatcher(self).matches(record)
    }
}

extension FilterAtom {
    public func matches(_ record: some FilterableRecord) -> Bool {
        FilterMatcher(FilterExpression(self)).matches(record)
    }
}
