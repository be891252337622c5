// swift-tools-version:6.1
import CompilerPluginSupport
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// What the tools and tests build on: the umbrella and every layer, named directly, because with the DebugOverrides
/// trait off the umbrella leaves out the file store and etcd (which the tools still need).
let library: [Target.Dependency] = [
    "ServiceConfiguration", "ServiceConfigurationFiles", "ServiceConfigurationFileStore", "ServiceConfigurationSync",
    "ServiceConfigurationEtcd", "ServiceConfigurationRemoteStore",
]

/// A swift-syntax product, used only with the `Macros` trait: without it SwiftPM neither fetches nor builds
/// swift-syntax.
func swiftSyntax(_ product: String) -> Target.Dependency {
    .product(name: product, package: "swift-syntax", condition: .when(traits: ["Macros"]))
}

let package = Package(
    name: "ServiceConfiguration",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ServiceConfiguration", targets: ["ServiceConfiguration"]),
        .library(name: "ServiceConfigurationCore", targets: ["ServiceConfigurationCore"]),
        .library(name: "ServiceConfigurationFileStore", targets: ["ServiceConfigurationFileStore"]),
        .library(name: "ServiceConfigurationSync", targets: ["ServiceConfigurationSync"]),
        .library(name: "ServiceConfigurationEtcd", targets: ["ServiceConfigurationEtcd"]),
        .library(name: "ServiceConfigurationRemoteStore", targets: ["ServiceConfigurationRemoteStore"]),
        .library(name: "ServiceConfigurationTesting", targets: ["ServiceConfigurationTesting"]),
        .library(name: "ServiceConfigurationSyncTesting", targets: ["ServiceConfigurationSyncTesting"]),
        .library(name: "ServiceConfigurationMacros", targets: ["ServiceConfigurationMacros"]),
        .plugin(name: "ConfigurationCatalogPlugin", targets: ["ConfigurationCatalogPlugin"]),
        .library(name: "DemoConfiguration", targets: ["DemoConfiguration"]),
        .library(name: "ConfigurationDebugMenu", targets: ["ConfigurationDebugMenu"]),
        .executable(name: "config-menu", targets: ["config-menu"]),
        .executable(name: "config-demo", targets: ["config-demo"]),
    ],
    traits: [
        .trait(
            name: "DebugOverrides",
            description: "Compiles in the debug override layer (overrides, the override store, the debug menu's "
                + "editing). Disable it for release builds that must ignore any override file: "
                + ".package(..., traits: [])."
        ),
        .trait(
            name: "Macros",
            description: "The key and scope macros (@ConfigurationScope, @ConfigurationKey, @Routes), built on "
                + "swift-syntax: .package(..., traits: [.defaults, \"Macros\"]). Off by default: without it "
                + "swift-syntax is neither fetched nor built, and keys are declared by hand."
        ),
        .default(enabledTraits: ["DebugOverrides"]),
    ],
    dependencies: [
        // Only the Macros trait uses it (every product dependency on it is conditioned on the trait), so a
        // consumer without the trait does not fetch it. scripts/setup-debian points SwiftPM at a local mirror
        // where GitHub cannot be reached.
        .package(url: "https://github.com/swiftlang/swift-syntax.git", from: "603.0.0")
    ],
    targets: [
        // The library in layers (ARCHITECTURE.md): Core <- Files <- FileStore, Files <- Sync, both <- Etcd, and the
        // umbrella that re-exports them. scripts/check-imports holds each target to what it may import.
        .target(name: "ServiceConfigurationCore", swiftSettings: swiftSettings),
        // Not a product: what every layer that keeps files shares (atomic writes, bounded reads, writing JSON,
        // reading timestamps, process liveness), used by the file store and by sync's snapshot cache, so sync does
        // not need the file store.
        .target(
            name: "ServiceConfigurationFiles",
            dependencies: ["ServiceConfigurationCore"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ServiceConfigurationFileStore",
            dependencies: ["ServiceConfigurationCore", "ServiceConfigurationFiles"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ServiceConfigurationSync",
            dependencies: [
                "ServiceConfigurationCore", "ServiceConfigurationFiles",
                .target(name: "CCurl", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: swiftSettings
        ),
        // The override store of a `config-menu serve` reached over HTTP (`http://HOST:PORT`): the file store's entry
        // encoding on sync's HTTP transport.
        .target(
            name: "ServiceConfigurationRemoteStore",
            dependencies: [
                "ServiceConfigurationCore", "ServiceConfigurationFiles", "ServiceConfigurationFileStore",
                "ServiceConfigurationSync",
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ServiceConfigurationEtcd",
            dependencies: [
                "ServiceConfigurationCore", "ServiceConfigurationFiles", "ServiceConfigurationFileStore",
                "ServiceConfigurationSync", "ServiceConfigurationRemoteStore",
            ],
            swiftSettings: swiftSettings
        ),
        // With the DebugOverrides trait off the umbrella is the core and sync: no override store, journal, store
        // watcher, program report publisher or etcd code is compiled into an app that imports it.
        .target(
            name: "ServiceConfiguration",
            dependencies: [
                "ServiceConfigurationCore", "ServiceConfigurationSync",
                .target(name: "ServiceConfigurationFileStore", condition: .when(traits: ["DebugOverrides"])),
                .target(name: "ServiceConfigurationEtcd", condition: .when(traits: ["DebugOverrides"])),
                .target(name: "ServiceConfigurationRemoteStore", condition: .when(traits: ["DebugOverrides"])),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ServiceConfigurationTesting",
            dependencies: ["ServiceConfigurationCore"],
            swiftSettings: swiftSettings
        ),
        // The server-values source conformance suite: apart, so the mock's users do not link sync.
        .target(
            name: "ServiceConfigurationSyncTesting",
            dependencies: ["ServiceConfigurationCore", "ServiceConfigurationSync", "ServiceConfigurationTesting"],
            swiftSettings: swiftSettings
        ),
        // ncursesw from the system (Debian: libncurses-dev). No `pkgConfig:` on purpose: SwiftPM would drop the
        // -D flags pkg-config gives with a "prohibited flag" warning; the shim header defines what is needed.
        .systemLibrary(name: "CNcursesw", providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]),
        // libcurl from the system (Debian: libcurl4-openssl-dev), the HTTP transport on Linux only: Apple platforms
        // use URLSession. Its headers are on the default include path, so no `pkgConfig:` either.
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(
            name: "ConfigurationDebugMenu",
            dependencies: library + ["CNcursesw"],
            swiftSettings: swiftSettings
        ),
        .target(name: "DemoConfiguration", dependencies: ["ServiceConfigurationCore"], swiftSettings: swiftSettings),
        // `config-menu serve` (issue 24): the effective values over OFREP, and a change stream, on a small HTTP/1.1
        // server of its own (sockets, threads). Not a product: the tools use it.
        .target(
            name: "ConfigurationServer",
            dependencies: ["ServiceConfigurationCore", "ServiceConfigurationFiles", "ServiceConfigurationFileStore"],
            swiftSettings: swiftSettings
        ),
        // The macros: their declarations (a library app modules import) and their implementation (a compiler
        // plugin on swift-syntax). Without the Macros trait both compile to stand-ins that need nothing.
        .macro(
            name: "ServiceConfigurationMacrosPlugin",
            dependencies: [
                swiftSyntax("SwiftCompilerPlugin"),
                swiftSyntax("SwiftDiagnostics"),
                swiftSyntax("SwiftSyntax"),
                swiftSyntax("SwiftSyntaxBuilder"),
                swiftSyntax("SwiftSyntaxMacros"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ServiceConfigurationMacros",
            dependencies: [
                "ServiceConfiguration",
                .target(name: "ServiceConfigurationMacrosPlugin", condition: .when(traits: ["Macros"])),
            ],
            swiftSettings: swiftSettings
        ),
        // Registration that cannot be forgotten (issue 23): a build-tool plugin an app target applies; its generator
        // parses the sources of the target and of the modules it links with swift-syntax and lists every
        // configuration scope in one generated file. The parsing is a target of its own so it can be tested.
        // Without the Macros trait the generator compiles without swift-syntax and, if run, says to enable it.
        .target(
            name: "ConfigurationScopeScanner",
            dependencies: [swiftSyntax("SwiftSyntax"), swiftSyntax("SwiftParser")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "configuration-catalog-generator",
            dependencies: ["ConfigurationScopeScanner"],
            swiftSettings: swiftSettings
        ),
        .plugin(
            name: "ConfigurationCatalogPlugin",
            capability: .buildTool(),
            dependencies: ["configuration-catalog-generator"]
        ),
        .executableTarget(
            name: "config-menu",
            dependencies: library + ["ConfigurationDebugMenu", "DemoConfiguration", "ConfigurationServer"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "config-demo",
            dependencies: library + ["DemoConfiguration"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "config-benchmarks",
            dependencies: library + ["DemoConfiguration", "ConfigurationDebugMenu", "ConfigurationServer"],
            path: "Sources/ConfigurationBenchmarks",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SharedTestSupport", dependencies: ["ServiceConfigurationTesting"], path: "Tests/SharedTestSupport",
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "store-test-helper",
            dependencies: library,
            path: "Tests/StoreTestHelper",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "sync-test-helper",
            dependencies: library,
            path: "Tests/SyncTestHelper",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ServiceConfigurationTests",
            dependencies: library + [
                "ServiceConfigurationTesting", "ServiceConfigurationSyncTesting", "DemoConfiguration",
                "store-test-helper", "sync-test-helper", "SharedTestSupport",
            ],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        // The terminal menu: its reducer, screens and components, and the real binary driven in tmux (which needs
        // config-menu and config-demo built; these tests do not import the tool's code).
        .testTarget(
            name: "ConfigurationDebugMenuTests",
            dependencies: library + [
                "ConfigurationDebugMenu", "ServiceConfigurationTesting", "DemoConfiguration", "config-menu",
                "config-demo", "SharedTestSupport",
            ],
            exclude: ["Screens", "Fixtures"],
            swiftSettings: swiftSettings
        ),
        // The config-menu command-line tool's commands (and config-demo's), run as real processes.
        .testTarget(
            name: "ConfigMenuCommandTests",
            dependencies: library + [
                "config-menu", "config-demo", "store-test-helper", "SharedTestSupport", "ConfigurationServer",
                "DemoConfiguration",
            ],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KeyDeclarationTests",
            dependencies: library + ["ServiceConfigurationTesting"],
            swiftSettings: swiftSettings
        ),
        // Compiled only with the Macros trait (`swift test --traits DebugOverrides,Macros --filter Macro`): the
        // expansions and diagnostics (swift-syntax's test support), and keys declared with the macros in use.
        .testTarget(
            name: "ServiceConfigurationMacrosTests",
            dependencies: library + [
                "ServiceConfigurationMacros", "ServiceConfigurationTesting", "ConfigurationScopeScanner",
                .target(name: "ServiceConfigurationMacrosPlugin", condition: .when(traits: ["Macros"])),
                swiftSyntax("SwiftSyntaxMacrosGenericTestSupport"),
                swiftSyntax("SwiftSyntaxMacroExpansion"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
