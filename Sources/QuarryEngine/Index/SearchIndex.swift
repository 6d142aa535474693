// Stand-in until the engine branches merge.
public enum PositionEncoding: String, Sendable { case utf8 = "utf-8", utf16 = "utf-16" }
