// swift-tools-version:6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "ServiceConfiguration",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ServiceConfiguration", targets: ["ServiceConfiguration"]),
        .library(name: "ServiceConfigurationTesting", targets: ["ServiceConfigurationTesting"]),
        .library(name: "DemoConfiguration", targets: ["DemoConfiguration"]),
    ],
    targets: [
        .target(name: "ServiceConfiguration", swiftSettings: swiftSettings),
        .target(
            name: "ServiceConfigurationTesting",
            dependencies: ["ServiceConfiguration"],
            swiftSettings: swiftSettings
        ),
        .target(name: "DemoConfiguration", dependencies: ["ServiceConfiguration"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "config-benchmarks",
            dependencies: ["ServiceConfiguration", "DemoConfiguration"],
            path: "Sources/ConfigurationBenchmarks",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ServiceConfigurationTests",
            dependencies: ["ServiceConfiguration", "ServiceConfigurationTesting", "DemoConfiguration"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KeyDeclarationTests",
            dependencies: ["ServiceConfiguration", "ServiceConfigurationTesting"],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
