import QuarryEngine
import QuarryJSON
import QuarrySearchContract

/// The faceted workload: every keystroke also counts 5 facets, 30% of keystrokes carry 1–2
/// filters, and the worst class is a one-letter query with every facet and 3 disjunctive groups.
enum FacetedWorkload {
    static let facets: [JSON] = ["brand", "categories", "color", "rating", "price"]
    static let colors = ["black", "white", "red", "blue", "green", "silver", "grey", "pink", "gold", "orange", "purple", "brown"]

    /// Adds the facet attributes the catalogue lacks (colour, rating), derived from the record number.
    static func augment(_ record: JSONObject, _ i: Int, random: inout Catalogue.Random) -> JSONObject {
        var record = record
        record["color"] = .string(colors[random.skewed(colors.count)])
        record["rating"] = .int(Int64(1 + random.below(5)))
        return record
    }

    static func settings(_ base: IndexSettings) -> IndexSettings {
        var settings = base
        settings.attributesForFaceting = ["brand", "categories", "color", "rating", "price"].map { FacetAttribute(attribute: $0) }
        return settings
    }

    /// 1–2 filters, chosen by `n`.
    static func filters(_ n: Int, random: inout Catalogue.Random) -> String {
        let first: String
        switch n % 4 {
        case 0: first = "brand:\"\(Catalogue.brands[random.skewed(10)])\""
        case 1: first = "price < \(10 + random.below(500))"
        case 2: first = "categories:\"\(Catalogue.categories[random.skewed(Catalogue.categories.count)])\""
        default: first = "rating >= \(1 + random.below(4))"
        }
        guard random.below(2) == 0 else { return first }
        return first + " AND color:\(colors[random.below(colors.count)])"
    }

    /// The worst class: one letter, every facet, three or-groups.
    static func worst(_ letter: String, random: inout Catalogue.Random) -> JSONObject {
        let brands = (0..<2).map { _ in "brand:\"\(Catalogue.brands[random.skewed(10)])\"" }.joined(separator: " OR ")
        let palette = (0..<3).map { _ in "color:\(colors[random.below(colors.count)])" }.joined(separator: " OR ")
        return ["query": .string(letter), "hitsPerPage": 20, "facets": ["*"],
                "disjunctiveFilters": ["brand": .string(brands), "color": .string(palette), "rating": "rating:4 OR rating:5"]]
    }
}

func runFacetedWorkload(index: SearchIndex, settings: IndexSettings, records: [(DocID, JSONObject)], source: some RecordSource,
                        rounds: Int) throws {
    let clock = ContinuousClock()
    var random = Catalogue.Random(state: 99)
    var keystrokes: [Double] = [], worst: [Double] = [], keystrokesCPU: [Double] = [], worstCPU: [Double] = []
    var plain: [Double] = []
    var slowest: [(Double, String)] = []
    var n = 0
    func measure(_ json: JSONObject, into list: inout [Double], cpu: inout [Double]) throws -> Int {
        let parameters = try SearchParameters(json: json, settings: settings)
        var nbHits = 0
        let cpuStart = threadCPUSeconds()
        let elapsed = try clock.measure { nbHits = try index.search(parameters, records: source).nbHits }
        cpu.append((threadCPUSeconds() - cpuStart) * 1000)
        let ms = seconds(elapsed) * 1000
        list.append(ms)
        slowest.append((ms, "\(json["query"]?.stringValue ?? "") \(json["filters"]?.stringValue ?? "") (\(nbHits))"))
        return nbHits
    }
    var ignored: [Double] = []
    // `engine-bench N rounds faceted LETTER`: repeats the worst class for that letter, for profiling.
    if CommandLine.arguments.count > 4 {
        let argument = CommandLine.arguments[4]
        // `q:TEXT` repeats a plain faceted keystroke instead.
        // `q:TEXT|FILTERS` adds filters.
        let parts = argument.dropFirst(2).split(separator: "|", maxSplits: 1).map(String.init)
        var json: JSONObject = argument.hasPrefix("q:")
            ? ["query": .string(parts.first ?? ""), "hitsPerPage": 20, "facets": .array(FacetedWorkload.facets),
               "attributesToSnippet": ["description:10"]]
            : FacetedWorkload.worst(argument, random: &random)
        if argument.hasPrefix("q:"), parts.count > 1 { json["filters"] = .string(parts[1]) }
        for _ in 0..<200 { _ = try measure(json, into: &worst, cpu: &worstCPU) }
        worstCPU.sort()
        print(String(format: "repeated worst class: CPU p50 %.2f ms", worstCPU[worstCPU.count / 2]))
        return
    }
    for _ in 0..<rounds {
        for phrase in Catalogue.phrases {
            var typed = ""
            for character in phrase {
                typed.append(character)
                var json: JSONObject = ["query": .string(typed), "hitsPerPage": 20, "facets": .array(FacetedWorkload.facets),
                                        "attributesToSnippet": ["description:10"]]
                if random.below(10) < 3 { json["filters"] = .string(FacetedWorkload.filters(n, random: &random)) }
                n += 1
                _ = try measure(json, into: &keystrokes, cpu: &keystrokesCPU)
                // The same keystroke without facets or filters: the text search's own share.
                _ = try measure(["query": .string(typed), "hitsPerPage": 20, "attributesToSnippet": ["description:10"]],
                                into: &ignored, cpu: &plain)
            }
            _ = try measure(FacetedWorkload.worst(String(phrase.prefix(1)), random: &random), into: &worst, cpu: &worstCPU)
        }
    }
    keystrokes.sort()
    worst.sort()
    keystrokesCPU.sort()
    worstCPU.sort()
    plain.sort()
    func percentile(_ p: Double, _ values: [Double]) -> Double { values[min(values.count - 1, Int(Double(values.count) * p))] }
    print(String(format: "faceted keystrokes (%d): p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms", keystrokes.count,
                 percentile(0.5, keystrokes), percentile(0.9, keystrokes), percentile(0.99, keystrokes), keystrokes.last ?? 0))
    print(String(format: "worst class, one letter + all facets + 3 or-groups (%d): p50 %.2f ms, p99 %.2f ms, max %.2f ms", worst.count,
                 percentile(0.5, worst), percentile(0.99, worst), worst.last ?? 0))
    print(String(format: "thread CPU: faceted keystrokes p50 %.2f ms, p99 %.2f ms; worst class p50 %.2f ms, p99 %.2f ms; "
                 + "same keystrokes without facets or filters p50 %.2f ms, p99 %.2f ms",
                 percentile(0.5, keystrokesCPU), percentile(0.99, keystrokesCPU), percentile(0.5, worstCPU),
                 percentile(0.99, worstCPU), percentile(0.5, plain), percentile(0.99, plain)))
    print("slowest: " + slowest.sorted { $0.0 > $1.0 }.prefix(5).map { String(format: "%@ %.2f ms", $0.1, $0.0) }.joined(separator: "; "))
    try runRelevantSort(settings: settings, records: records, source: source, rounds: rounds)
}

/// A virtual replica sorted by price (relevant sort at strictness 100 and 0) over the same records.
func runRelevantSort(settings: IndexSettings, records: [(DocID, JSONObject)], source: some RecordSource, rounds: Int) throws {
    var replica = settings
    replica.isVirtualReplica = true
    replica.customRanking = [CustomRankingCriterion(attribute: "price", ascending: true)]
    let index = SearchIndex.build(settings: replica, records: records)
    for strictness in [100, 0] {
        var cpu: [Double] = []
        var slowest: [(Double, String)] = []
        for _ in 0..<rounds {
            for phrase in Catalogue.phrases {
                var typed = ""
                for character in phrase {
                    typed.append(character)
                    let parameters = try SearchParameters(json: ["query": .string(typed), "hitsPerPage": 20, "facets": .array(FacetedWorkload.facets),
                                                                 "relevancyStrictness": JSON(strictness)], settings: replica)
                    let start = threadCPUSeconds()
                    let response = try index.search(parameters, records: source)
                    cpu.append((threadCPUSeconds() - start) * 1000)
                    slowest.append((cpu[cpu.count - 1], "\(typed) (\(response.nbHits), sorted \(response.nbSortedHits ?? -1))"))
                }
            }
        }
        cpu.sort()
        print(String(format: "virtual replica by price, relevancyStrictness %d, faceted keystrokes (%d): thread CPU p50 %.2f ms, p99 %.2f ms, max %.2f ms",
                     strictness, cpu.count, cpu[cpu.count / 2], cpu[min(cpu.count - 1, cpu.count * 99 / 100)], cpu.last ?? 0))
        print("  slowest: " + slowest.sorted { $0.0 > $1.0 }.prefix(4).map { String(format: "%@ %.1f ms", $0.1, $0.0) }.joined(separator: "; "))
    }
}
