import QuarryJSON

/// MCP resources: each index's settings at `quarry://indices/{name}/settings`.
extension ToolRunner {
    static let settingsTemplate = "quarry://indices/{name}/settings"

    public func listResources() throws(MCPError) -> JSON {
        let items = try answering { try daemon("listIndices", [:])["items"]?.arrayValue ?? [] }
        let resources: [JSON] = items.compactMap { $0["name"]?.stringValue }.map { name in
            ["uri": .string(Self.settingsURI(name)), "name": .string("\(name) settings"),
             "description": .string("The settings of the index \(name), as getSettings answers them."),
             "mimeType": "application/json"]
        }
        return ["resources": .array(resources)]
    }

    public static var resourceTemplates: JSON {
        ["resourceTemplates": [["uriTemplate": .string(settingsTemplate), "name": "index settings",
                                "description": "An index's settings (Algolia's names).", "mimeType": "application/json"]]]
    }

    public func readResource(_ uri: String) throws(MCPError) -> JSON {
        let prefix = "quarry://indices/", suffix = "/settings"
        guard uri.hasPrefix(prefix), uri.hasSuffix(suffix), uri.count > prefix.count + suffix.count else {
            throw .resourceNotFound(uri)
        }
        let encoded = String(uri.dropFirst(prefix.count).dropLast(suffix.count))
        guard let name = Self.percentDecoded(encoded) else { throw .resourceNotFound(uri) }
        let settings: JSON
        do {
            settings = try daemon("getSettings", ["index": .string(name)])
        } catch {
            throw .resourceNotFound(uri)
        }
        return ["contents": [["uri": .string(uri), "mimeType": "application/json", "text": .string(JSONWriter.string(settings))]]]
    }

    /// Index names may hold any character but `/`; a URI carries the others percent-encoded.
    static func settingsURI(_ name: String) -> String {
        var encoded = ""
        for byte in name.utf8 {
            let unreserved = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || Array("-._~".utf8).contains(byte)
            if unreserved {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return "quarry://indices/\(encoded)/settings"
    }

    static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next(), let low = iterator.next(),
                  let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// A daemon call for an MCP method that is not a tool: failures are JSON-RPC errors.
    func answering<T>(_ body: () throws -> T) throws(MCPError) -> T {
        do {
            return try body()
        } catch {
            throw MCPError(code: -32603, message: "the quarry daemon could not answer: \(error)")
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
