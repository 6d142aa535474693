import QuarryJSON

/// Param readers shared by the session methods.
extension Params {
    /// A session name: 1 to 200 characters, no control characters.
    public func sessionName(_ name: String = "session") throws(ResponseError) -> String {
        let value = try string(name)
        guard value.count <= 200, !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .invalidParams("invalid params for '\(method)': '\(name)' must be a session name (1 to 200 characters, no control characters)", parameter: name)
        }
        return value
    }

    /// Reads a nested object `path` (`searchers[1]`) with the usual readers;
    /// errors name the full path (`searchers[1].index`).
    public func nested<T>(_ value: JSON?, at path: String, _ body: (Params) throws(ResponseError) -> T) throws(ResponseError) -> T {
        guard case .object(let object)? = value else { throw fail(path, expected: "an object", got: value) }
        let inner = try Params(.object(object), method: method)
        do {
            return try body(inner)
        } catch {
            guard let parameter = error.data?["parameter"]?.stringValue else { throw error }
            let full = "\(path).\(parameter)"
            let message = error.message.replacingFirst("'\(parameter)'", with: "'\(full)'")
            throw .invalidParams(message, parameter: full)
        }
    }

    /// An optional array of strings.
    public func optionalStrings(_ name: String) throws(ResponseError) -> [String]? {
        switch object[name] {
        case nil, .null?: return nil
        default: return try strings(name)
        }
    }

    /// An optional array of anything, for lists read element by element.
    public func optionalArray(_ name: String) throws(ResponseError) -> [JSON]? {
        switch object[name] {
        case nil, .null?: return nil
        case .array(let elements)?: return elements
        case let other?: throw fail(name, expected: "an array", got: other)
        }
    }

    /// A finite number.
    public func number(_ name: String) throws(ResponseError) -> Double {
        guard let value = object[name]?.doubleValue, value.isFinite else { throw fail(name, expected: "a number", got: object[name]) }
        return value
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = ranges(of: target).first else { return self }
        return String(self[..<range.lowerBound]) + replacement + String(self[range.upperBound...])
    }
}

/// A request about one session.
public protocol SessionScoped {
    var session: String { get }
}

/// The reply to a change: the session's version after it (its `stateChanged`
/// was sent first), and the searcher it created, if any.
public struct SessionChangeResponse: ResponseType {
    public var session: String
    public var stateVersion: Int
    public var searcher: String?

    public init(session: String, stateVersion: Int, searcher: String? = nil) {
        self.session = session
        self.stateVersion = stateVersion
        self.searcher = searcher
    }

    public var json: JSON {
        var object: JSONObject = ["session": .string(session), "stateVersion": JSON(stateVersion)]
        if let searcher { object["searcher"] = .string(searcher) }
        return .object(object)
    }
}
