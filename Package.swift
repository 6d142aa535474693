// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Quarry",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "quarry", targets: ["quarry"]),
        .library(name: "QuarryEngine", targets: ["QuarryEngine"]),
        .library(name: "QuarrySearchContract", targets: ["QuarrySearchContract"]),
        .library(name: "QuarryServer", targets: ["QuarryServer"]),
        // For Fuzz/, the libFuzzer driver's own package.
        .library(name: "QuarryFuzzing", targets: ["QuarryFuzzing"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // The web transport's HTTP and WebSocket edge (QuarryWeb); see ARCHITECTURE.md.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // C imports, each seen by one Swift module only.
        .systemLibrary(name: "CLibUV", pkgConfig: "libuv", providers: [.apt(["libuv1-dev"])]),
        .target(name: "CTransportShims", dependencies: ["CLibUV"]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // Record compression in the store (Storage/RecordCodec.swift).
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        .systemLibrary(name: "CMalloc"),
        .systemLibrary(name: "CPrefetch"),

        .target(name: "QuarrySync"),
        .target(name: "QuarryJSON", dependencies: [
            .product(name: "OrderedCollections", package: "swift-collections"),
        ]),
        .target(name: "QuarryProtocol", dependencies: ["QuarryJSON"]),
        .target(name: "QuarryTransport", dependencies: ["CLibUV", "CTransportShims", "QuarrySync"]),
        .target(name: "QuarryFilters", dependencies: ["QuarryJSON"]),
        // The search contract between the edges and the backends: queries, answers, settings, errors.
        .target(name: "QuarrySearchContract", dependencies: ["QuarryJSON", "QuarryFilters"]),
        // How record text is normalised, matched and highlighted: one reading of text for both backends.
        .target(name: "QuarryText", dependencies: ["QuarryJSON", "QuarrySearchContract"]),
        // What a record is and how it is read: record rules, partial updates, facet values, import readers.
        .target(name: "QuarryRecords", dependencies: ["QuarryJSON", "QuarrySearchContract", "QuarrySync"]),
        .target(name: "QuarryEngine", dependencies: [
            "QuarryJSON", "QuarryFilters", "QuarrySearchContract", "QuarryText", "QuarryRecords", "QuarrySync", "CSQLite", "CZstd",
            "CMalloc", "CPrefetch",
            .product(name: "Collections", package: "swift-collections"),
        ]),
        .target(name: "QuarrySession", dependencies: ["QuarryJSON", "QuarryFilters", "QuarrySearchContract"]),
        // Where indices live: the protocol the server calls, met by the engine and by QuarryTypesense.
        .target(name: "QuarryBackend", dependencies: ["QuarryJSON", "QuarrySearchContract", "QuarryEngine", "QuarrySync"]),
        // Indices on a Typesense cluster; reads records and text as the engine does (QuarryRecords, QuarryText), not the engine.
        .target(name: "QuarryTypesense", dependencies: [
            "QuarryJSON", "QuarryFilters", "QuarrySearchContract", "QuarryText", "QuarryRecords", "QuarryBackend", "QuarrySync",
        ]),
        .target(name: "QuarryServer", dependencies: [
            "QuarryJSON", "QuarryProtocol", "QuarryTransport", "QuarrySearchContract", "QuarryBackend",
            "QuarrySession", "QuarryFilters", "QuarrySync",
        ]),
        .target(name: "QuarryClient", dependencies: ["QuarryJSON", "QuarryProtocol"]),
        // A `quarry serve` relaying its stdio to the daemon that owns its data directory.
        .target(name: "QuarryRelay", dependencies: ["QuarryJSON", "QuarryTransport", "QuarryServer", "QuarrySync"]),
        // `quarry mcp`: MCP tools over the shared daemon, for coding agents.
        .target(name: "QuarryMCP", dependencies: ["QuarryJSON", "QuarryProtocol", "QuarryClient", "QuarryFilters"]),
        // Algolia's REST API read into the server's JSON-RPC calls (protocol/algolia-rest.md); pure.
        .target(name: "QuarryAlgoliaREST", dependencies: ["QuarryJSON"]),
        // The HTTP listener: WebSocket JSON-RPC into the same server, keys, Host/Origin guard, the page.
        .target(name: "QuarryWeb", dependencies: [
            "QuarryJSON", "QuarryTransport", "QuarryServer", "QuarrySync", "QuarryAlgoliaREST",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Logging", package: "swift-log"),
        ], resources: [
            .embedInCode("Page/index.html"), .embedInCode("Page/style.css"), .embedInCode("Page/app.js"),
            .embedInCode("Page/rpc.js"), .embedInCode("Page/render.js"), .embedInCode("Page/histogram.js"),
            .embedInCode("Page/favicon.svg"),
        ]),
        // The fuzz targets' oracles, replayed by the tests and driven by libFuzzer (Fuzz/).
        .target(name: "QuarryFuzzing", dependencies: [
            "QuarryJSON", "QuarryProtocol", "QuarryTransport", "QuarryFilters", "QuarrySearchContract", "QuarryRecords",
            "QuarryEngine", "QuarryBackend", "QuarryServer", "QuarrySync",
        ]),
        .executableTarget(name: "quarry", dependencies: [
            "QuarryServer", "QuarryTransport", "QuarrySearchContract", "QuarryEngine", "QuarryBackend", "QuarryTypesense", "QuarryJSON", "QuarryProtocol",
            "QuarryClient", "QuarryRelay", "QuarrySync", "QuarryMCP", "QuarryWeb",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        .testTarget(name: "QuarrySyncTests", dependencies: ["QuarrySync"]),
        .testTarget(name: "QuarryJSONTests", dependencies: ["QuarryJSON"]),
        .testTarget(name: "QuarryProtocolTests", dependencies: ["QuarryProtocol", "QuarryJSON"]),
        .testTarget(name: "QuarryTransportTests", dependencies: ["QuarryTransport"]),
        .testTarget(name: "QuarryRelayTests", dependencies: ["QuarryRelay", "QuarryTransport", "QuarryJSON"]),
        .testTarget(name: "QuarrySearchContractTests", dependencies: ["QuarrySearchContract", "QuarryFilters", "QuarryJSON"]),
        .testTarget(name: "QuarryRecordsTests", dependencies: ["QuarryRecords", "QuarrySearchContract", "QuarryJSON"]),
        .testTarget(name: "QuarryFiltersTests", dependencies: ["QuarryFilters", "QuarryJSON"]),
        .testTarget(name: "QuarryEngineTests", dependencies: [
            "QuarryEngine", "QuarrySearchContract", "QuarryText", "QuarryRecords", "QuarryJSON", "QuarryFilters", "QuarrySync",
        ]),
        .testTarget(name: "QuarrySessionTests", dependencies: ["QuarrySession", "QuarrySearchContract", "QuarryFilters", "QuarryJSON"]),
        .testTarget(name: "QuarryBackendTests", dependencies: ["QuarryBackend", "QuarrySearchContract", "QuarryEngine", "QuarryJSON"]),
        .testTarget(name: "QuarryTypesenseTests", dependencies: [
            "QuarryTypesense", "QuarryBackend", "QuarrySearchContract", "QuarryText", "QuarryRecords", "QuarryEngine", "QuarryFilters",
            "QuarryJSON", "QuarrySync",
        ]),
        .testTarget(name: "QuarryMCPTests", dependencies: ["QuarryMCP", "QuarryClient", "QuarryJSON"]),
        .testTarget(name: "QuarryWebTests", dependencies: ["QuarryWeb"]),
        .testTarget(name: "QuarryAlgoliaRESTTests", dependencies: ["QuarryAlgoliaREST", "QuarryJSON"]),
        .testTarget(name: "QuarryFuzzingTests", dependencies: ["QuarryFuzzing"]),
        .testTarget(name: "QuarryServerTests", dependencies: ["QuarryServer", "QuarryBackend", "QuarrySearchContract", "QuarryProtocol", "QuarryTransport", "QuarryJSON", "QuarrySync"]),
    ],
    swiftLanguageModes: [.v6]
)
