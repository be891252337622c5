import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationFiles
import Testing

@Suite("Default store location per platform")
struct StoreLocationTests {
    let container = URL(
        fileURLWithPath: "/Users/qa/Library/Developer/CoreSimulator/Devices/D/data/Containers/Data/Application/A")

    @Test("Apple platforms: Library/Application Support/<app>/overrides.json in the app's container; XDG is ignored")
    func applicationSupport() {
        let support = StoreLocationConvention.applicationSupport(inContainer: container)
        #expect(support.path == container.path + "/Library/Application Support")
        let url = FileOverrideStore.defaultURL(
            appName: "shop", environment: ["HOME": container.path, "XDG_STATE_HOME": "/var/st"],
            convention: .applicationSupport(support))
        #expect(url.path == container.path + "/Library/Application Support/shop/overrides.json")
    }

    @Test("Apple platforms: CONFIG_OVERRIDES_FILE still wins (a UI test's prepared scenario)")
    func environmentWinsOnApplePlatforms() {
        let url = FileOverrideStore.defaultURL(
            appName: "shop", environment: ["CONFIG_OVERRIDES_FILE": "~/scenario.json", "HOME": "/home/qa"],
            convention: .applicationSupport(StoreLocationConvention.applicationSupport(inContainer: container)))
        #expect(url.path == (("~/scenario.json" as NSString).expandingTildeInPath))
    }

    @Test("this platform's default follows its convention, and the snapshot follows the store")
    func thisPlatform() {
        let environment = ["HOME": "/home/qa", "XDG_STATE_HOME": "/var/st"]
        let url = FileOverrideStore.defaultURL(appName: "demo", environment: environment)
        #if canImport(Darwin)
            #expect(url.path.hasSuffix("/Library/Application Support/demo/overrides.json"))
        #else
            #expect(url.path == "/var/st/demo/overrides.json")
        #endif
        #expect(
            ServerSnapshotLocation.url(besideStoreAt: url).path
                == url.deletingLastPathComponent().appendingPathComponent("server-snapshot.json").path)
    }
}
