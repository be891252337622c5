// swift-tools-version:6.1
// A consumer whose catalog is found, not listed (issue 23, registration that cannot be forgotten): two feature modules
// declare a scope each (Checkout with the macros, Profile by hand), the app module and its tests apply
// ConfigurationCatalogPlugin, which generates `LinkedConfigurationScopes` from the modules they link.
// scripts/check-registry builds and tests it, and shows a scope file added to a module appear in the generated list.
//
// REGISTRY_APP_WITHOUT_PLUGIN=1 builds it without the plugin (the app then lists its scopes by hand only): what
// scripts/check-registry --measure compares the plugin's build cost against.
import Foundation
import PackageDescription

let withPlugin = ProcessInfo.processInfo.environment["REGISTRY_APP_WITHOUT_PLUGIN"] == nil
let catalogPlugin: [Target.PluginUsage] =
    withPlugin ? [.plugin(name: "ConfigurationCatalogPlugin", package: "ServiceConfiguration")] : []
let pluginSettings: [SwiftSetting] = withPlugin ? [.define("CATALOG_PLUGIN")] : []

let package = Package(
    name: "RegistryApp",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [.package(name: "ServiceConfiguration", path: "../../..", traits: [.defaults, "Macros"])],
    targets: [
        .target(
            name: "Checkout",
            dependencies: [.product(name: "ServiceConfigurationMacros", package: "ServiceConfiguration")]
        ),
        .target(
            name: "Profile",
            dependencies: [.product(name: "ServiceConfigurationCore", package: "ServiceConfiguration")]
        ),
        .target(
            name: "RegistryApp",
            dependencies: [
                "Checkout", "Profile", .product(name: "ServiceConfiguration", package: "ServiceConfiguration"),
            ],
            swiftSettings: pluginSettings,
            plugins: catalogPlugin
        ),
        .executableTarget(name: "registry-app", dependencies: ["RegistryApp"], swiftSettings: pluginSettings),
        .testTarget(
            name: "RegistryAppTests",
            dependencies: [
                "RegistryApp", "Checkout", "Profile",
                .product(name: "ServiceConfigurationTesting", package: "ServiceConfiguration"),
            ],
            swiftSettings: pluginSettings,
            plugins: catalogPlugin
        ),
    ],
    swiftLanguageModes: [.v6]
)
