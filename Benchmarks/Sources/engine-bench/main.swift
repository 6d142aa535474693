import Foundation
import QuarryEngine
import QuarryJSON
import QuarrySearchContract

/// engine-bench [documents] [queries-per-phrase-rounds]: builds a synthetic catalogue, then reports indexing
/// throughput, derived file size, resident memory, reopen time and per-keystroke search latency.
struct ArrayRecords: RecordSource {
    let records: [JSONObject]
    func record(_ id: DocID) -> JSONObject? { Int(id) < records.count ? records[Int(id)] : nil }
}

func residentKilobytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
    return 0
}

/// CPU time of this thread: the machine is shared, so wall time also counts waiting for a core.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }

let arguments = CommandLine.arguments
/// The workloads named by the first argument; without one of these names, the synthetic catalogue below.
let workloads: [String: ([String]) throws -> Void] = [
    "realistic": runRealistic, "merge": runMerge, "build": runBuild, "parse": runParse, "frames": runFrames,
    "encode": runEncode,
]
if arguments.count > 1, let run = workloads[arguments[1]] {
    try run(arguments)
    exit(0)
}
let count = arguments.count > 1 ? Int(arguments[1].replacingOccurrences(of: "k", with: "000").replacingOccurrences(of: "M", with: "000000")) ?? 10_000 : 10_000
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 3 : 3
// `engine-bench N rounds faceted`: the faceted workload (records gain colour and rating, 5 facets declared).
let faceted = arguments.count > 3 && arguments[3] == "faceted"

var random = Catalogue.Random(state: 42)
var records: [JSONObject] = []
records.reserveCapacity(count)
var rawBytes = 0
for i in 0..<count {
    var record = Catalogue.record(i, random: &random)
    if faceted { record = FacetedWorkload.augment(record, i, random: &random) }
    rawBytes += JSONWriter.encode(.object(record)).count
    records.append(record)
}
print("documents: \(count), raw JSON: \(rawBytes / 1024) KiB")

var settings = IndexSettings()
settings.searchableAttributes = [
    SearchableAttribute(paths: ["name"]), SearchableAttribute(paths: ["brand"]),
    SearchableAttribute(paths: ["categories"]), SearchableAttribute(paths: ["description"], ordered: false),
]
settings.customRanking = [CustomRankingCriterion(attribute: "popularity", ascending: false)]
if faceted { settings = FacetedWorkload.settings(settings) }

let rssBefore = residentKilobytes()
let clock = ContinuousClock()
var index: SearchIndex? = nil
let buildTime = clock.measure {
    index = SearchIndex.build(settings: settings, records: records.enumerated().map { (DocID($0.offset), $0.element) })
}
guard let index else { fatalError("build failed") }
let rssAfter = residentKilobytes()
print(String(format: "indexing: %.2f s, %.0f docs/s", seconds(buildTime), Double(count) / seconds(buildTime)))
print("index memory (VmRSS delta): \(max(0, rssAfter - rssBefore) / 1024) MiB (raw JSON \(rawBytes / 1024 / 1024) MiB)")

let path = NSTemporaryDirectory() + "engine-bench-\(getpid()).qsi"
let writeTime = try clock.measure { try index.write(to: path, generation: 1) }
let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
print(String(format: "derived file: %d KiB, written in %.2f s", size / 1024, seconds(writeTime)))
var reopened: SearchIndex? = nil
let readTime = try clock.measure { reopened = try SearchIndex.read(from: path, settings: settings).index }
try? FileManager.default.removeItem(atPath: path)
print(String(format: "reopen: %.3f s (%d documents)", seconds(readTime), reopened?.documentCount ?? 0))
reopened = nil

// Small write batch on the big index, then the full compaction an owner would run in the background.
var updated: SearchIndex? = nil
let updateTime = clock.measure {
    updated = index.updating(upserts: [(DocID(count + 1), Catalogue.record(count + 1, random: &random))], deletions: [0])
}
print(String(format: "updating one record: %.2f ms", seconds(updateTime) * 1000))
let compactTime = clock.measure { _ = updated?.compacted() }
print(String(format: "compacted() after it (full merge from token lists): %.2f s", seconds(compactTime)))
updated = nil

let source = ArrayRecords(records: records)
// `engine-bench N rounds "query"` repeats one query, for profiling.
if arguments.count > 3 && !faceted {
    let parameters = try SearchParameters(json: ["query": .string(arguments[3]), "attributesToSnippet": ["description:10"]],
                                          settings: settings)
    var total = Duration.zero
    let repeats = 1000
    let cpuStart = threadCPUSeconds()
    for _ in 0..<repeats { total += try clock.measure { _ = try index.search(parameters, records: source) } }
    let cpu = threadCPUSeconds() - cpuStart
    print(String(format: "%@: %.3f ms average wall, %.3f ms CPU", arguments[3], seconds(total) * 1000 / Double(repeats),
                 cpu * 1000 / Double(repeats)))
    exit(0)
}
if faceted {
    try runFacetedWorkload(index: index, settings: settings, records: records.enumerated().map { (DocID($0.offset), $0.element) },
                           source: source, rounds: rounds)
    exit(0)
}
var latencies: [Double] = []
var cpuLatencies: [Double] = []
var slowest: [(Double, String)] = []
/// Per distinct keystroke, its fastest thread-CPU time over the rounds (the least disturbed by other load).
var perQuery: [String: (Double, Int)] = [:]
for _ in 0..<rounds {
    for phrase in Catalogue.phrases {
        var typed = ""
        for character in phrase {
            typed.append(character)
            var json: JSONObject = ["query": .string(typed), "hitsPerPage": 20]
            json["attributesToSnippet"] = ["description:10"]
            let parameters = try SearchParameters(json: json, settings: settings)
            var nbHits = 0
            let cpuStart = threadCPUSeconds()
            let elapsed = try clock.measure { nbHits = try index.search(parameters, records: source).nbHits }
            cpuLatencies.append((threadCPUSeconds() - cpuStart) * 1000)
            let cpu = cpuLatencies[cpuLatencies.count - 1]
            perQuery[typed] = (min(perQuery[typed]?.0 ?? .infinity, cpu), nbHits)
            let ms = seconds(elapsed) * 1000
            latencies.append(ms)
            slowest.append((ms, "\(typed) (\(nbHits) hits)"))
        }
    }
}
latencies.sort()
let sortedLatencies = latencies
let sortedCPU = cpuLatencies.sorted()
func percentile(_ p: Double, _ values: [Double]) -> Double { values[min(values.count - 1, Int(Double(values.count) * p))] }
print(String(format: "keystroke latency (wall) over %d queries: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms",
             sortedLatencies.count, percentile(0.5, sortedLatencies), percentile(0.9, sortedLatencies),
             percentile(0.99, sortedLatencies), sortedLatencies.last ?? 0))
print(String(format: "keystroke latency (thread CPU): p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms",
             percentile(0.5, sortedCPU), percentile(0.9, sortedCPU), percentile(0.99, sortedCPU), sortedCPU.last ?? 0))
print("slowest: " + slowest.sorted { $0.0 > $1.0 }.prefix(5).map { String(format: "%@ %.2f ms", $0.1, $0.0) }.joined(separator: "; "))
// `ENGINE_BENCH_LIST=n`: the n slowest distinct keystrokes by their best thread-CPU time, to see what p99 is made of.
if let list = ProcessInfo.processInfo.environment["ENGINE_BENCH_LIST"].flatMap({ Int($0) }) {
    for (query, (cpu, hits)) in perQuery.sorted(by: { $0.value.0 > $1.value.0 }).prefix(list) {
        print(String(format: "  %7.2f ms CPU  %@ (%d hits)", cpu, "\"\(query)\"", hits))
    }
}
