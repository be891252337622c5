import Foundation
import ServiceConfiguration
import ServiceConfigurationTesting
import Testing

#if DebugOverrides
    @Suite("DebugOverrides trait on (the default)")
    struct OverridesCompiledInTests {
        @Test("this build has the override layer")
        func compiledIn() throws {
            #expect(ConfigurationEngine.overridesCompiledIn)
            let service = LiveConfigurationService(overrides: [ConfigurationScopes.Fixture.FlagKey.name: "Y"])
            #expect(service.flag)
        }
    }
#else
    /// Run with `swift test --disable-default-traits --filter OverridesCompiledOutTests` (CI does).
    @Suite("DebugOverrides trait off: release builds ignore every override")
    struct OverridesCompiledOutTests {
        typealias Fixture = ConfigurationScopes.Fixture

        @Test("a store file full of overrides is never read, and setting one is refused")
        func storeIgnored() throws {
            let folder = TemporaryFolder()
            let writer = FileOverrideStore(url: folder.storeURL())
            try writer.set("Y", forKey: Fixture.FlagKey.name)
            try writer.set("99", forKey: Fixture.CountKey.name)
            let bytes = try Data(contentsOf: folder.storeURL())

            let store = FileOverrideStore(url: folder.storeURL())
            let service = LiveConfigurationService(
                serverValues: [Fixture.FlagKey.name: "N"],
                catalog: try fixtureCatalog(),
                overrideStore: store
            )
            #expect(service.overrideStore == nil)
            #expect(store.entries.isEmpty, "the store was read")
            #expect(service.flag == false)
            #expect(service.resolution(of: Fixture.FlagKey.self).source == .server)
            #expect(service.count == 3)
            #expect(throws: ConfigurationError.overridesDisabled) {
                try service.setOverride(true, for: Fixture.FlagKey.self)
            }
            #expect(throws: ConfigurationError.overridesDisabled) { try service.removeAllOverrides() }
            #expect(try Data(contentsOf: folder.storeURL()) == bytes)
        }

        @Test("no store, so no program report; the in-memory read coverage still works")
        func noProgramReport() throws {
            let folder = TemporaryFolder()
            let service = LiveConfigurationService(
                catalog: try fixtureCatalog(), overrideStore: FileOverrideStore(url: folder.storeURL()),
                options: .init(onWarning: nil))
            _ = service.count
            _ = service[ConfigurationScopes.Unlisted.LimitKey.self]
            #expect(service.programReportURL == nil)
            #expect(service.readCoverage().reads.map(\.name).contains(Fixture.CountKey.name))
            #expect(service.readCoverage().unregistered.map(\.name) == [ConfigurationScopes.Unlisted.LimitKey.name])
            #expect(!FileManager.default.fileExists(atPath: ProgramReports.folder(forStoreAt: folder.storeURL()).path))
        }

        @Test("in-memory overrides and the mock's overrides are ignored too")
        func inMemoryIgnored() {
            #expect(!ConfigurationEngine.overridesCompiledIn)
            let service = LiveConfigurationService(overrides: [Fixture.FlagKey.name: "Y"])
            #expect(service.flag == false)
            #expect(service.overrides.isEmpty)
            let mock = MockConfigurationService()
            #expect(throws: ConfigurationError.overridesDisabled) {
                try mock.setOverride(true, for: Fixture.FlagKey.self)
            }
        }
    }
#endif
