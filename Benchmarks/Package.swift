// swift-tools-version:6.0
import Foundation
import PackageDescription

// A path dependency's identity is its directory name, which differs between worktrees and checkouts.
let rootIdentity = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

let package = Package(
    name: "QuarryBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(name: "engine-bench", dependencies: [
            .product(name: "QuarryEngine", package: rootIdentity),
            .product(name: "QuarrySearchContract", package: rootIdentity),
            .product(name: "QuarryServer", package: rootIdentity),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
