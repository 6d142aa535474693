import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import QuarryJSON
import QuarryTypesense

/// `quarry serve`'s cluster options, else the `typesense` object of
/// `$XDG_CONFIG_HOME/quarry/config.json` (what a daemon started in the
/// background by a client command reads); nil keeps every index embedded.
struct TypesenseOptions: ParsableArguments {
    @Option(help: "Run indices on this Typesense cluster: host:port of each node's API, comma-separated.")
    var typesenseNodes: String?

    @Option(help: "A file holding the cluster's API key, readable by its owner only (chmod 600).")
    var typesenseAPIKeyFile: String?

    @Option(help: "Which indices live on the cluster: all (the default), or names separated by commas.")
    var typesenseIndices: String?

    func validate() throws {
        if typesenseNodes == nil && (typesenseAPIKeyFile != nil || typesenseIndices != nil) {
            throw ValidationError("--typesense-api-key-file and --typesense-indices need --typesense-nodes")
        }
        if typesenseNodes != nil && typesenseAPIKeyFile == nil {
            throw ValidationError("--typesense-nodes needs --typesense-api-key-file (the key is never given on the command line)")
        }
    }

    func configuration() throws -> TypesenseConfiguration? {
        if let typesenseNodes, let typesenseAPIKeyFile {
            var configuration = TypesenseConfiguration(
                nodes: try TypesenseConfiguration.parseNodes(typesenseNodes),
                apiKey: try TypesenseConfiguration.readAPIKey(file: typesenseAPIKeyFile))
            if let typesenseIndices { configuration.indices = try TypesenseConfiguration.parseIndices(typesenseIndices) }
            return configuration
        }
        guard let object = try Self.configFile() else { return nil }
        return try TypesenseConfiguration.fromConfig(object)
    }

    /// config.json's `typesense` object, nil when absent.
    static func configFile() throws -> JSONObject? {
        try ConfigFile.section("typesense", shape: "{nodes, apiKeyFile, indices}")
    }
}
