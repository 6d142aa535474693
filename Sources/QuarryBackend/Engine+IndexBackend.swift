import QuarryEngine
import QuarryJSON
import QuarrySearchContract

/// The embedded engine already answers in the backend's vocabulary.
extension Engine: IndexBackend {
    public var description: BackendDescription { BackendDescription(name: "embedded") }

    public func health() -> JSONObject { ["ok": true] }

    public func searchBatch(_ reads: [BatchRead]) -> [Result<SearchAnswer, BackendError>] {
        searchEach(reads)
    }
}
