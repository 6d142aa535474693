import ArgumentParser
import QuarryJSON

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Search an index once and print the hits.",
        discussion: """
            Each hit is a line: its objectID, its title (the first searchable attribute), then the other \
            attributes that matched. Matches show in colour on a terminal (none when NO_COLOR is set), as \
            <em>…</em> tags when the output goes to a pipe or a file; --highlight chooses:
              quarry search talks climate --highlight color | less -R
              quarry search talks climate --highlight none > hits.txt
            """)

    /// The most facet values a search may return: asked for so that the summary can say how many more there are.
    static let facetValuesAsked = 1000

    @Argument(help: "The index to search.") var index: String
    @Argument(help: "The query (may be empty).") var query: String = ""
    @Flag(help: "Print the whole Algolia-shaped response as JSON.") var json = false
    @Option(help: "Hits per page.") var hitsPerPage: Int?
    @Option(help: "The page to show (0-based).") var page: Int?
    @Option(help: "An Algolia filter string, e.g. 'brand:Apple AND price < 100'.") var filters: String?
    @Option(help: "Facets to count, comma-separated ('*' for every declared facet).") var facets: String?
    @Option(help: "How matches are marked: color, tags (<em>…</em>) or none (default: color on a terminal, none there with NO_COLOR, tags elsewhere).")
    var highlight: HighlightStyle?
    @Option(help: "More search parameters, as a JSON object.") var params: String?
    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        try reportingErrors("search", json: json) {
            var parameters: JSONObject = ["index": .string(index), "query": .string(query)]
            var extra: JSONObject = [:]
            if let params {
                guard case .object(let object) = try JSONParser.parse(params) else {
                    throw ValidationError("--params must be a JSON object")
                }
                extra = object
            }
            if let filters { parameters["filters"] = .string(filters) }
            if let facets {
                parameters["facets"] = .array(facets.split(separator: ",").map { .string(String($0)) })
                if !json { parameters["maxValuesPerFacet"] = JSON(Self.facetValuesAsked) }
            }
            if let hitsPerPage { parameters["hitsPerPage"] = JSON(hitsPerPage) }
            if let page { parameters["page"] = JSON(page) }
            parameters.merge(extra) { _, new in new }
            let connection = try daemon.connect(clientName: "quarry search")
            let response = try connection.request("search", params: .object(parameters))
            for (_, reason) in response["facetsNotCounted"]?.objectValue ?? [:] {
                if let reason = reason.stringValue { Log.standardError.write("quarry search: facet not counted: \(reason)") }
            }
            if json {
                print(JSONWriter.string(response))
                return
            }
            let settings = try connection.request("getSettings", params: ["index": .string(index)])
            var renderer = HitsRenderer(
                highlight: highlight ?? .forStandardOutput,
                titleAttribute: HitsRenderer.titleAttribute(searchableAttributes: settings["searchableAttributes"]),
                facetValuesAsked: parameters["maxValuesPerFacet"]?.intValue
                    ?? parameters["maxValuesPerFacet"]?.stringValue.flatMap { Int($0) } ?? settings["maxValuesPerFacet"]?.intValue)
            if let tag = parameters["highlightPreTag"]?.stringValue ?? settings["highlightPreTag"]?.stringValue { renderer.preTag = tag }
            if let tag = parameters["highlightPostTag"]?.stringValue ?? settings["highlightPostTag"]?.stringValue { renderer.postTag = tag }
            print(renderer.render(response))
        }
    }
}
