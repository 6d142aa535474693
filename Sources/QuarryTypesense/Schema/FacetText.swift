import QuarryJSON

/// What documents need of facet texts beyond the engine's `FacetValues` (whose leaves, texts,
/// numbers and `_geoloc` points the document builder uses as they are).
enum FacetText {
    /// The number a facet text spells, as the engine's facet column reads it (plain decimal notation).
    static func number(_ text: String) -> Double? {
        guard !text.isEmpty,
              text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x2E || $0 == 0x65 || $0 == 0x45 || $0 == 0x2B })
        else { return nil }
        guard let d = Double(text), d.isFinite else { return nil }
        return d
    }
}
