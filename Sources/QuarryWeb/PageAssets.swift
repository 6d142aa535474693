/// The search page's files, compiled into the binary (Package.swift `embedInCode`): the page works
/// offline and from wherever the binary was copied, with no resource folder beside it.
enum PageAssets {
    struct Asset: Sendable {
        let bytes: [UInt8]
        let contentType: String
    }

    static func asset(at path: String) -> Asset? {
        switch path {
        case "/", "/index.html": Asset(bytes: PackageResources.index_html, contentType: "text/html; charset=utf-8")
        case "/style.css": Asset(bytes: PackageResources.style_css, contentType: "text/css; charset=utf-8")
        case "/app.js": Asset(bytes: PackageResources.app_js, contentType: "text/javascript; charset=utf-8")
        case "/rpc.js": Asset(bytes: PackageResources.rpc_js, contentType: "text/javascript; charset=utf-8")
        case "/render.js": Asset(bytes: PackageResources.render_js, contentType: "text/javascript; charset=utf-8")
        case "/histogram.js": Asset(bytes: PackageResources.histogram_js, contentType: "text/javascript; charset=utf-8")
        case "/favicon.svg": Asset(bytes: PackageResources.favicon_svg, contentType: "image/svg+xml")
        default: nil
        }
    }
}
