import QuarryEngine
import QuarryJSON
import QuarrySearchContract

/// Settings decoding's oracle: settings decoded from any object render to an
/// object that decodes to the same settings and renders the same again.
enum SettingsFuzzing {
    static func run(_ data: [UInt8]) throws(OracleViolation) {
        guard case .object(let object)? = try? JSONParser.parse(data),
              let settings = try? IndexSettings(json: object) else { return }
        let rendered = settings.json()
        let decoded: IndexSettings
        do {
            decoded = try IndexSettings(json: rendered)
        } catch {
            throw OracleViolation("rendered settings are refused (\(error)): \(JSONWriter.string(.object(rendered)))")
        }
        try expect(decoded == settings, "rendered settings decode differently: \(JSONWriter.string(.object(rendered)))")
        try expect(decoded.json() == rendered, "rendering is not stable: \(JSONWriter.string(.object(rendered)))")
    }
}
