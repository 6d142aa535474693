import QuarryClient
import QuarryJSON

/// Settings exported from an index name its replicas, which stay that index's: importing them into a
/// copy beside it would take them away, which the daemon refuses. So that README.md's round trip
/// (`quarry export talks … && quarry import talks-copy …`) works as written, `quarry import` leaves
/// out the replicas that belong to another index, and says so; the copy declares its own if it wants.
enum ForeignReplicas {
    /// `settings` without the replicas owned by an index other than `index`, and the note to print.
    static func leftOut(of settings: JSON, importingInto index: String,
                        connection: DaemonConnection) throws -> (settings: JSON, note: String?) {
        guard case .object(var object) = settings else { return (settings, nil) }
        var notes: [String] = []
        for key in ["replicas", "slaves"] {
            guard let declared = object[key]?.arrayValue else { continue }
            var kept: [JSON] = []
            for entry in declared {
                guard let name = entry.stringValue.map(replicaName),
                      let owner = try owner(of: name, connection: connection), owner != index
                else {
                    kept.append(entry)
                    continue
                }
                notes.append("'\(name)' (a replica of '\(owner)')")
            }
            object[key] = kept.isEmpty ? nil : .array(kept)
        }
        guard !notes.isEmpty else { return (settings, nil) }
        let note = "left out replicas that belong to another index: \(notes.joined(separator: ", ")); "
            + "give '\(index)' replicas of its own with `quarry settings \(index) --set FILE`"
        return (.object(object), note)
    }

    /// `name` of a `virtual(name)` entry, else the entry itself.
    private static func replicaName(_ entry: String) -> String {
        guard entry.hasPrefix("virtual("), entry.hasSuffix(")") else { return entry }
        return String(entry.dropFirst("virtual(".count).dropLast())
    }

    /// The primary `name` is a replica of; nil for a primary or an index that does not exist.
    private static func owner(of name: String, connection: DaemonConnection) throws(ClientError) -> String? {
        let settings: JSON
        do {
            settings = try connection.request("getSettings", params: ["index": .string(name)])
        } catch {
            guard case .rpc(let refusal) = error, refusal.code == .invalidParams else { throw error }
            return nil
        }
        return settings["primary"]?.stringValue
    }
}
