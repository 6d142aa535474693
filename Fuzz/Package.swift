// swift-tools-version:6.0
// The libFuzzer driver, a package of its own so the main build never needs
// -sanitize=fuzzer. Built and run by scripts/fuzz.
import PackageDescription

let package = Package(
    name: "QuarryFuzz",
    dependencies: [
        .package(name: "Quarry", path: ".."),
    ],
    targets: [
        .target(name: "CFuzzerDriver"),
        .executableTarget(name: "quarry-fuzz", dependencies: [
            "CFuzzerDriver",
            .product(name: "QuarryFuzzing", package: "Quarry"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
