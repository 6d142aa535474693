import QuarryProtocol

extension ResponseError {
    /// The message as a person reads it: without the protocol's kind in front ("invalid params for
    /// 'search': …"), which the code already says to scripts (`quarry call`, `--json`).
    public var readableMessage: String {
        for kind in ["invalid params", "invalid request"] where message.hasPrefix(kind) {
            var rest = message.dropFirst(kind.count)
            if rest.hasPrefix(" for '"), let close = rest.dropFirst(6).firstIndex(of: "'") {
                rest = rest[rest.index(after: close)...]
            }
            guard rest.hasPrefix(": ") else { return message }
            return String(rest.dropFirst(2))
        }
        return message
    }
}
