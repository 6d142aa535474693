import QuarryJSON
import QuarrySearchContract

extension TypesenseBackend {
    /// Fills a new collection for `destination` from the source (its records and/or settings;
    /// the destination keeps its own replicas) and swaps the destination's alias to it: a search
    /// sees the old destination or the new, and a failure drops the new collection. `move` then
    /// deletes the source; a failure between the two leaves both, as after a copy.
    public func copyIndex(_ name: String, to destination: String, records: Bool, settings: Bool, move: Bool)
        throws(BackendError) -> WriteReceipt
    {
        guard destination != name else {
            throw .invalidParameter(name: "destination", expected: "an index other than the source '\(name)'")
        }
        try ready()
        let source = try writable(name, create: false)
        let existed = try catalog.snapshot().entries[destination] != nil
        let target = try writable(destination, create: true)
        var combined = target.parsedSettings
        if settings {
            combined = source.parsedSettings
            combined.replicas = target.parsedSettings.replicas
        }
        do throws(BackendError) {
            try rebuild(target, settings: combined.json()) { sink throws(BackendError) in
                try copyRecords(of: records ? source : target, into: sink)
            }
        } catch {
            if !existed { _ = try? deleteIndex(destination) }
            throw error
        }
        if move { _ = try deleteIndex(name) }
        return WriteReceipt(objectIDs: [], taskID: taskIDs.next())
    }
}
