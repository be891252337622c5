import Foundation
import Search
import ServiceConfiguration

// search-app [--store FILE]: prints the build and whether overrides apply, every search key with its value and source,
// then the page they give. The server values stand for a sync; one of them ("EU") is refused by the key's pattern, so
// the default stays.

/// Overrides apply in debug builds, and in release builds compiled with the app's `QA` trait
/// (`swift build -c release --traits QA`).
#if QA
    let overridePolicy = ConfigurationOverridePolicy.allBuilds
#else
    let overridePolicy = ConfigurationOverridePolicy.debugBuildsOnly
#endif

let catalog: ConfigurationCatalog
do {
    catalog = try ConfigurationCatalog(scopes: [ConfigurationScopes.Search.self])
} catch {
    FileHandle.standardError.write(Data("search-app: the catalog cannot be built: \(error)\n".utf8))
    exit(1)
}
let arguments = CommandLine.arguments
let store = arguments.firstIndex(of: "--store").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
let service = LiveConfigurationService(
    serverValues: ["search.page_size": "50", "search.suggestions.enabled": "off", "search.region": "EU"],
    catalog: catalog,
    overrideStore: FileOverrideStore(url: URL(fileURLWithPath: store ?? "/dev/null/no-overrides.json")),
    watchMode: nil,
    overridePolicy: overridePolicy
)
print(
    "build: \(ConfigurationOverridePolicy.isDebugBuild ? "debug" : "release"), policy: \(overridePolicy), "
        + "overrides apply: \(service.overridesApply ? "yes" : "no")")
for key in catalog.keys {
    guard let resolution = service.resolution(forKeyNamed: key.name) else { continue }
    print("\(key.name) = \(resolution.value ?? "—") (\(resolution.source))")
}
let page = SearchPage(configuration: service)
print("page: \(page.size) results, \(page.order), suggestions \(page.suggests ? "on" : "off")")
