// swift-tools-version:6.1
// A consumer that declares its keys by hand, the form that needs no macros: the `ServiceConfiguration` product with
// its default traits, no `Macros` trait, so SwiftPM neither fetches nor builds swift-syntax (ci-check proves it).
// Examples/ShopApp declares its keys with the macros.
import PackageDescription

let package = Package(
    name: "HandWrittenApp",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        .package(name: "ServiceConfiguration", path: "../..")
    ],
    targets: [
        .target(
            name: "Search",
            dependencies: [.product(name: "ServiceConfiguration", package: "ServiceConfiguration")]
        ),
        .executableTarget(
            name: "search-app",
            dependencies: ["Search", .product(name: "ServiceConfiguration", package: "ServiceConfiguration")]
        ),
        .testTarget(
            name: "SearchTests",
            dependencies: [
                "Search",
                .product(name: "ServiceConfigurationTesting", package: "ServiceConfiguration"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
