// swift-tools-version:6.1
// A consumer that declares its keys by hand, the form that needs no macros: the `ServiceConfiguration` product with
// its default traits, no `Macros` trait, so SwiftPM neither fetches nor builds swift-syntax (ci-check proves it).
// Examples/ShopApp declares its keys with the macros. CI builds this app in debug, release and QA-release (ci-check).
import PackageDescription

let package = Package(
    name: "HandWrittenApp",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    traits: [
        // `swift build -c release --traits QA`: a release build for QA that honours overrides.
        .trait(name: "QA", description: "A QA build: overrides apply even in a release configuration.")
    ],
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
            dependencies: ["Search", .product(name: "ServiceConfiguration", package: "ServiceConfiguration")],
            swiftSettings: [.define("QA", .when(traits: ["QA"]))]
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
