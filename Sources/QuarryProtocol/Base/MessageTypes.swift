import QuarryJSON

/// A client→server request: its method name, its params parsed and checked,
/// and the type of its result.
public protocol RequestType: Sendable {
    associatedtype Response: ResponseType
    static var method: String { get }
    init(params: Params) throws(ResponseError)
}

/// A request's result, as it goes on the wire.
public protocol ResponseType: Sendable {
    var json: JSON { get }
}

/// A notification in either direction.
public protocol NotificationType: Sendable {
    static var method: String { get }
}

/// A client→server notification whose params are parsed like a request's.
public protocol ClientNotificationType: NotificationType {
    init(params: Params) throws(ResponseError)
}

/// A server→client notification.
public protocol ServerNotificationType: NotificationType {
    var params: JSON { get }
}

extension ServerNotificationType {
    public var message: JSON { OutgoingMessage.notification(Self.method, params: params) }
}

/// A result that is `null` on the wire (`shutdown`, say).
public struct VoidResponse: ResponseType {
    public init() {}
    public var json: JSON { .null }
}

/// A result the engine already shaped as Algolia does (search, settings).
public struct JSONResponse: ResponseType {
    public var json: JSON
    public init(_ json: JSON) { self.json = json }
}
