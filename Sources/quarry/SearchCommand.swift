import ArgumentParser
import QuarryJSON

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Search an index once and print the hits.")

    @Argument(help: "The index to search.") var index: String
    @Argument(help: "The query (may be empty).") var query: String = ""
    @Flag(help: "Print the whole Algolia-shaped response as JSON.") var json = false
    @Option(help: "Hits per page.") var hitsPerPage: Int?
    @Option(help: "The page to show (0-based).") var page: Int?
    @Option(help: "An Algolia filter string, e.g. 'brand:Apple AND price < 100'.") var filters: String?
    @Option(help: "Facets to count, comma-separated ('*' for every declared facet).") var facets: String?
    @Option(help: "More search parameters, as a JSON object.") var params: String?
    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        try reportingErrors("search", json: json) {
            var parameters: JSONObject = ["index": .string(index), "query": .string(query)]
            if let params {
                guard case .object(let extra) = try JSONParser.parse(params) else {
                    throw ValidationError("--params must be a JSON object")
                }
                parameters.merge(extra) { _, new in new }
            }
            if let filters { parameters["filters"] = .string(filters) }
            if let facets {
                parameters["facets"] = .array(facets.split(separator: ",").map { .string(String($0)) })
            }
            if let hitsPerPage { parameters["hitsPerPage"] = JSON(hitsPerPage) }
            if let page { parameters["page"] = JSON(page) }
            let connection = try daemon.connect(clientName: "quarry search")
            let response = try connection.request("search", params: .object(parameters))
            if json {
                print(JSONWriter.string(response))
            } else {
                print(HitsRenderer(colour: isatty(1) != 0).render(response))
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
