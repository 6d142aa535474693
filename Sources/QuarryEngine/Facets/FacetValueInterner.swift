/// A column's values by first appearance: dense ids by exact text, and whether some record held each as a number.
struct FacetValueInterner {
    private var ids: [String: UInt32] = [:]
    private(set) var texts: [String] = []
    private(set) var flags: [UInt8] = []

    mutating func intern(_ text: String, numeric: Bool) -> UInt32 {
        let id: UInt32
        if let known = ids[text] {
            id = known
        } else {
            id = UInt32(texts.count)
            ids[text] = id
            texts.append(text)
            flags.append(0)
        }
        if numeric { flags[Int(id)] = 1 }
        return id
    }
}
