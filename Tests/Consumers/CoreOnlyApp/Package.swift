// swift-tools-version:6.1
// A consumer that depends on the core and testing products only: a feature module declares its keys, a program reads
// them, tests use the mock. scripts/check-consumers builds it and checks that its binary holds no file store, store
// watcher, journal, program report, sync or etcd code.
import PackageDescription

let package = Package(
    name: "CoreOnlyApp",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [.package(name: "ServiceConfiguration", path: "../../..")],
    targets: [
        .target(
            name: "Greeting",
            dependencies: [.product(name: "ServiceConfigurationCore", package: "ServiceConfiguration")]
        ),
        .executableTarget(
            name: "core-app",
            dependencies: ["Greeting", .product(name: "ServiceConfigurationCore", package: "ServiceConfiguration")]
        ),
        .testTarget(
            name: "GreetingTests",
            dependencies: ["Greeting", .product(name: "ServiceConfigurationTesting", package: "ServiceConfiguration")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
