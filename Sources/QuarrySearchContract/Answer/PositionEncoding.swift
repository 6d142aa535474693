/// The unit match ranges are counted in, as LSP's `positionEncoding`: UTF-8 bytes, UTF-16 code units
/// (JavaScript, Neovim's LSP client), or code points (Emacs and Python index strings by them).
public enum PositionEncoding: String, Sendable, CaseIterable {
    case utf8 = "utf-8", utf16 = "utf-16", utf32 = "utf-32"
}
