extension TypesenseCluster {
    func read(_ request: TypesenseRequest) throws(TypesenseError) -> HTTPResponse {
        let timeout = request.timeout ?? options.readTimeout
        if let windowEnd = readYourWritesWindowEnd() {
            if let leader = state.withLock({ $0.leader }) ?? discoverLeader() {
                switch attempt(request, on: leader, timeout: timeout) {
                case .answered(let response):
                    markAnswered(leader)
                    return response
                case .rejected(let error):
                    throw error
                case .failed:
                    markFailed(leader)
                    forgetLeader(leader)
                }
            }
            // No leader to read from: once the window has passed, any node has the write.
            Self.sleep(seconds: max(0, (windowEnd - ContinuousClock.now) / .seconds(1)))
        }
        var failures: [String] = []
        for node in readOrder() {
            switch attempt(request, on: node, timeout: timeout) {
            case .answered(let response):
                markAnswered(node)
                return response
            case .rejected(let error):
                throw error
            case .failed(let failure):
                markFailed(node)
                failures.append("\(nodes[node]): \(failure.text)")
            }
        }
        throw .unavailable(failures.joined(separator: "; "))
    }

    /// When reads may leave the leader again, nil when no write is that recent.
    func readYourWritesWindowEnd() -> ContinuousClock.Instant? {
        guard let lastWrite = state.withLock({ $0.lastWrite }) else { return nil }
        let end = lastWrite + .milliseconds(Int64(options.readYourWritesWindow * 1000))
        return end > ContinuousClock.now ? end : nil
    }

    /// Every node once, starting one further than the last read: those that answered
    /// recently first, then those that failed within the cooldown, as a last resort.
    func readOrder() -> [Int] {
        let now = ContinuousClock.now
        let cooldown = Duration.milliseconds(Int64(options.failedNodeCooldown * 1000))
        return state.withLock { state in
            let start = state.nextRead
            state.nextRead = (start + 1) % nodes.count
            var healthy: [Int] = []
            var failed: [Int] = []
            for offset in 0..<nodes.count {
                let node = (start + offset) % nodes.count
                if let failedAt = state.failedAt[node], now - failedAt < cooldown {
                    failed.append(node)
                } else {
                    healthy.append(node)
                }
            }
            return healthy + failed
        }
    }
}
