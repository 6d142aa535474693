extension TypesenseCluster {
    func write(_ request: TypesenseRequest) throws(TypesenseError) -> HTTPResponse {
        let timeout = request.timeout ?? options.writeTimeout
        let deadline = ContinuousClock.now + .milliseconds(Int64(options.writeRetryBound * 1000))
        var backoff = options.initialBackoff
        var lastFailure: String?
        while true {
            if let leader = state.withLock({ $0.leader }) ?? discoverLeader() {
                let outcome = attempt(request, on: leader, timeout: timeout)
                switch outcome {
                case .answered(let response):
                    noteWrite()
                    markAnswered(leader)
                    return response
                case .rejected(let error):
                    throw error
                case .failed(let failure):
                    // A write that may have been applied pins reads as if it had.
                    if !failure.notApplied { noteWrite() }
                    markFailed(leader)
                    forgetLeader(leader)
                    lastFailure = "the write to \(nodes[leader]) failed: \(failure.text)"
                    if request.kind == .write && !failure.notApplied {
                        throw .unavailable("\(nodes[leader]): \(failure.text); the write may or may not have been applied")
                    }
                }
            }
            if ContinuousClock.now + .milliseconds(Int64(backoff * 1000)) > deadline {
                throw .unavailable(unavailableText(lastFailure: lastFailure))
            }
            Self.sleep(seconds: backoff)
            backoff = min(backoff * 2, options.maximumBackoff)
        }
    }

    func noteWrite() {
        let now = ContinuousClock.now
        state.withLock {
            $0.lastWrite = now
            $0.writes += 1
        }
    }

    /// Each node's state as last probed, then the last failed attempt.
    func unavailableText(lastFailure: String?) -> String {
        let states = state.withLock { $0.nodeStates }
        var parts = zip(nodes, states).map { "\($0): \($1)" }
        parts.append("no write accepted within \(options.writeRetryBound) s")
        if let lastFailure { parts.append(lastFailure) }
        return parts.joined(separator: "; ")
    }
}
