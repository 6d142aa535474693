import QuarryJSON

/// A deterministic synthetic product catalogue: the same seed gives the same records on every machine.
struct Catalogue {
    /// SplitMix64: tiny, fast, and stable across platforms.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        /// Skewed towards small indices, like word frequencies.
        mutating func skewed(_ n: Int) -> Int { let a = below(n), b = below(n); return min(a, b) }
    }

    static let brands = ["Samsung", "Apple", "Sony", "Bosch", "Philips", "Logitech", "Canon", "Nikon", "Dell", "Lenovo",
                         "Asus", "Acer", "Huawei", "Xiaomi", "Panasonic", "Sharp", "Toshiba", "Garmin", "Fitbit", "Bose",
                         "Sennheiser", "JBL", "Marshall", "Yamaha", "Roland", "Fender", "Gibson", "Makita", "DeWalt", "Nestlé",
                         "Müller", "Løvstad", "Citroën", "Škoda", "Häagen", "Dyson", "Miele", "Siemens", "Braun", "Oral"]
    static let categories = ["Music", "Musical Instruments", "Headphones", "Televisions", "Cameras", "Laptops", "Phones",
                             "Kitchen", "Garden", "Tools", "Toys", "Books", "Sports", "Outdoor", "Office", "Gaming",
                             "Watches", "Audio", "Lighting", "Furniture", "Beauty", "Health", "Baby", "Pets", "Automotive"]
    static let adjectives = ["wireless", "portable", "compact", "professional", "smart", "classic", "digital", "electric",
                             "ultra", "mini", "premium", "waterproof", "noise", "cancelling", "ergonomic", "vintage", "modern",
                             "lightweight", "heavy", "duty", "stainless", "steel", "bluetooth", "rechargeable", "organic",
                             "musical", "acoustic", "mechanical", "gaming", "outdoor", "indoor", "foldable", "adjustable"]
    static let nouns = ["speaker", "headphones", "guitar", "piano", "keyboard", "mouse", "monitor", "camera", "lens", "drill",
                        "kettle", "toaster", "blender", "watch", "tracker", "phone", "tablet", "laptop", "charger", "cable",
                        "lamp", "chair", "desk", "backpack", "bottle", "tent", "bicycle", "helmet", "drum", "violin",
                        "microphone", "amplifier", "router", "printer", "vacuum", "shaver", "toothbrush", "stroller", "leash"]
    /// A larger vocabulary of made-up words for descriptions, so the dictionary has a realistic tail.
    static let vocabulary: [String] = {
        let syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "mu", "si", "ca", "do", "fe", "gu", "ha", "jo",
                         "pe", "qu", "ri", "ta", "we", "xo", "yu", "bra", "cle", "dri", "fla", "glo", "pro", "str", "tha"]
        var random = Random(state: 7)
        var words = Set<String>()
        while words.count < 20_000 {
            var word = ""
            for _ in 0..<(2 + random.below(3)) { word += syllables[random.below(syllables.count)] }
            words.insert(word)
        }
        return words.sorted()
    }()

    static func record(_ i: Int, random: inout Random) -> JSONObject {
        let brand = brands[random.skewed(brands.count)]
        let noun = nouns[random.below(nouns.count)]
        let name = "\(brand) \(adjectives[random.below(adjectives.count)]) \(adjectives[random.below(adjectives.count)]) \(noun) \(random.below(900) + 100)"
        var description: [String] = []
        for _ in 0..<(12 + random.below(20)) {
            description.append(random.below(4) == 0 ? adjectives[random.below(adjectives.count)] : vocabulary[random.skewed(vocabulary.count)])
        }
        return [
            "objectID": .string("p\(i)"),
            "name": .string(name),
            "brand": .string(brand),
            "categories": .array([.string(categories[random.skewed(categories.count)]), .string(categories[random.below(categories.count)])]),
            "description": .string(description.joined(separator: " ")),
            "price": .double(Double(random.below(100_000)) / 100),
            "popularity": .int(Int64(random.skewed(1_000_000))),
        ]
    }

    /// Queries typed one keystroke at a time: real words, multi-word, typos, accents.
    static let phrases = ["music", "musical instruments", "samsung tv", "wireles headphones", "sony camera lens",
                          "guitar", "bluetooth speaker", "nestle", "citroen", "apple watch", "professional drill",
                          "kettle stainless", "gaming mouse", "noise cancelling", "portable charger", "mikrophone",
                          "acoustic guitar", "smart phone", "logitech keyboard", "vacuum"]
}
