// swift-tools-version:6.1
// A consumer of ServiceConfiguration, written as an app team would: two feature modules that own their keys (declared
// with the macros), an app that builds the catalog, a file store, the debug menu behind a flag, and tests with the
// mock. CI builds, tests and runs it in debug (see ci-check). Examples/HandWrittenApp declares its keys by hand,
// without the macros and without swift-syntax, and is the example CI builds in release and QA-release.
import PackageDescription

let package = Package(
    name: "ShopApp",
    // The package's minimums (Synchronization's Mutex): macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .executable(name: "shop-app", targets: ["shop-app"])
    ],
    dependencies: [
        // From a folder: the package identity is the folder's name ("ServiceConfiguration" here, from `../..`
        // it is the repository folder's name, so it is spelled out). From a repository it is the URL's last path
        // component: .package(url: "https://example.com/org/service-configuration.git", from: "1.0.0") is
        // "service-configuration".
        // The `Macros` trait brings the key macros (and swift-syntax, which builds them); `.defaults` keeps the
        // DebugOverrides trait.
        .package(name: "ServiceConfiguration", path: "../..", traits: [.defaults, "Macros"])
    ],
    targets: [
        .target(
            name: "Checkout",
            dependencies: [
                .product(name: "ServiceConfiguration", package: "ServiceConfiguration"),
                .product(name: "ServiceConfigurationMacros", package: "ServiceConfiguration"),
            ]
        ),
        .target(
            name: "Profile",
            dependencies: [
                .product(name: "ServiceConfiguration", package: "ServiceConfiguration"),
                .product(name: "ServiceConfigurationMacros", package: "ServiceConfiguration"),
            ]
        ),
        .target(
            name: "ShopAppCore",
            dependencies: [
                "Checkout", "Profile",
                .product(name: "ServiceConfiguration", package: "ServiceConfiguration"),
            ],
            // Generates `LinkedConfigurationScopes`: every scope of the modules ShopAppCore links, so the catalog
            // needs no list (README: "Let the build find the scopes").
            plugins: [.plugin(name: "ConfigurationCatalogPlugin", package: "ServiceConfiguration")]
        ),
        .executableTarget(
            name: "shop-app",
            dependencies: [
                "ShopAppCore",
                .product(name: "ServiceConfiguration", package: "ServiceConfiguration"),
                .product(name: "ConfigurationDebugMenu", package: "ServiceConfiguration"),
            ]
        ),
        .testTarget(
            name: "CheckoutTests",
            dependencies: [
                "Checkout",
                .product(name: "ServiceConfigurationTesting", package: "ServiceConfiguration"),
            ]
        ),
        .testTarget(
            name: "ProfileTests",
            dependencies: [
                "Profile",
                .product(name: "ServiceConfigurationTesting", package: "ServiceConfiguration"),
            ]
        ),
        .testTarget(
            name: "ShopAppTests",
            dependencies: [
                "ShopAppCore", "Checkout", "Profile",
                .product(name: "ServiceConfigurationTesting", package: "ServiceConfiguration"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
