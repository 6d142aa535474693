import QuarryJSON

extension TypesenseCluster {
    /// Each node's reachability, role and `/health`, and the leader, probed now
    /// (all nodes at once, each within the probe timeout). Also refreshes the cached leader.
    ///
    /// `{"leader": "h:p" | null, "nodes": [{"node", "reachable", "role", "healthy", "state"}]}`
    public func health() -> JSONObject {
        let probes = probeAll { node -> (NodeState, Bool) in
            let role = self.probeRole(node)
            guard case .unreachable = role else {
                let healthy = if case .success(let json) = self.probe(node, path: "/health") { json["ok"]?.boolValue ?? false } else { false }
                return (role, healthy)
            }
            return (role, false)
        }
        let leader = recordRoles(probes.map(\.0))
        var nodeReports: [JSON] = []
        for (node, (role, healthy)) in zip(nodes, probes) {
            var report: JSONObject = ["node": .string(node.description)]
            if case .unreachable = role { report["reachable"] = false } else { report["reachable"] = true }
            report["role"] = .string(role.role)
            report["healthy"] = .bool(healthy)
            report["state"] = .string(role.description)
            nodeReports.append(.object(report))
        }
        return [
            "leader": leader.map { .string(nodes[$0].description) } ?? .null,
            "nodes": .array(nodeReports),
        ]
    }
}
