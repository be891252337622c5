// swift-tools-version:6.1
// A consumer of the umbrella product with the DebugOverrides trait off, as a release build that must ignore every
// override file declares it. scripts/check-consumers builds it, checks that its binary holds no override store,
// journal, store watcher, program report or etcd code, and that code naming the file store does not compile.
import PackageDescription

let package = Package(
    name: "TraitOffApp",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [.package(name: "ServiceConfiguration", path: "../../..", traits: [])],
    targets: [
        .executableTarget(
            name: "trait-off-app",
            dependencies: [.product(name: "ServiceConfiguration", package: "ServiceConfiguration")]
        )
    ],
    swiftLanguageModes: [.v6]
)
