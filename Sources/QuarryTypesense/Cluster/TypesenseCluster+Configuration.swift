extension TypesenseCluster {
    /// The cluster `quarry serve --typesense-nodes` configures; nodes that do not parse are left out
    /// (`TypesenseConfiguration.parseNodes` has rejected them already).
    public convenience init(configuration: TypesenseConfiguration, transport: any HTTPTransport = SocketTransport.shared,
                            log: (@Sendable (String) -> Void)? = nil) {
        var options = ClusterOptions()
        options.writeRetryBound = configuration.writeRetrySeconds
        options.readYourWritesWindow = configuration.readYourWritesSeconds
        self.init(nodes: configuration.nodes.compactMap { TypesenseNode($0) }, apiKey: configuration.apiKey,
                  options: options, transport: transport, log: log)
    }
}
