import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationTesting
import Testing

#if DebugOverrides
    @Suite("Override policy: debug builds apply overrides, release builds only when asked")
    struct OverridePolicyTests {
        typealias Fixture = ConfigurationScopes.Fixture

        @Test("the default policy follows the build configuration; allBuilds applies them in every build")
        func policy() throws {
            #expect(ConfigurationEngine.overridesCompiledIn)
            #if DEBUG
                #expect(ConfigurationOverridePolicy.isDebugBuild)
            #else
                #expect(!ConfigurationOverridePolicy.isDebugBuild)
            #endif
            #expect(
                ConfigurationOverridePolicy.debugBuildsOnly.appliesInThisBuild
                    == ConfigurationOverridePolicy.isDebugBuild)
            #expect(ConfigurationOverridePolicy.allBuilds.appliesInThisBuild)

            let qa = LiveConfigurationService(overrides: [Fixture.FlagKey.name: "Y"], overridePolicy: .allBuilds)
            #expect(qa.flag && qa.overridesApply)
            let standard = LiveConfigurationService(overrides: [Fixture.FlagKey.name: "Y"])
            #expect(standard.flag == ConfigurationOverridePolicy.isDebugBuild)
            #expect(standard.overridesApply == ConfigurationOverridePolicy.isDebugBuild)
        }

        @Test("never behaves as a release build does, in this (debug or release) test run: live service and mock")
        func neverActsAsRelease() throws {
            #expect(!ConfigurationOverridePolicy.never.appliesInThisBuild)
            let folder = TemporaryFolder()
            let writer = FileOverrideStore(url: folder.storeURL())
            try writer.set("Y", forKey: Fixture.FlagKey.name)
            let store = FileOverrideStore(url: folder.storeURL())
            let service = LiveConfigurationService(
                catalog: try fixtureCatalog(), overrideStore: store, overridePolicy: .never)
            #expect(!service.overridesApply && store.entries.isEmpty, "the store is never read")
            #expect(!service.flag, "the store's override does not apply")
            let inMemory = LiveConfigurationService(overrides: [Fixture.CountKey.name: "9"], overridePolicy: .never)
            #expect(inMemory.count == 3 && inMemory.overrides.isEmpty, "nor does an override passed in memory")
            #expect(throws: ConfigurationError.overridesDisabled) { try service.setOverride(true, for: \.flag) }
            #expect(throws: ConfigurationError.overridesDisabled) {
                try service.setOverride(rawValue: "Y", forKeyNamed: Fixture.FlagKey.name, note: nil)
            }

            let mock = MockConfigurationService(
                scopes: [ConfigurationScopes.Fixture.self], overrides: [Fixture.FlagKey.name: "Y"],
                overridePolicy: .never)
            #expect(!mock.overridesApply && !mock.flag)
            #expect(throws: ConfigurationError.overridesDisabled) { try mock.setOverride(true, for: \.flag) }
            mock.flag = true
            #expect(mock.flag, "server values still apply")
            #expect(ConfigurationError.overridesDisabled.description.contains(".never"))
            // What the README used to promise: .debugBuildsOnly follows the build the tests run in.
            let debugOnly = MockConfigurationService(
                scopes: [ConfigurationScopes.Fixture.self], overrides: [Fixture.FlagKey.name: "Y"],
                overridePolicy: .debugBuildsOnly)
            #expect(debugOnly.flag == ConfigurationOverridePolicy.isDebugBuild)
        }

        @Test("where the policy refuses, the store is never read and setting an override is refused")
        func refusedStore() throws {
            let folder = TemporaryFolder()
            let writer = FileOverrideStore(url: folder.storeURL())
            try writer.set("Y", forKey: Fixture.FlagKey.name)
            let bytes = try Data(contentsOf: folder.storeURL())
            for policy in ConfigurationOverridePolicy.allCases where !policy.appliesInThisBuild {
                let store = FileOverrideStore(url: folder.storeURL())
                let service = LiveConfigurationService(
                    catalog: try fixtureCatalog(), overrideStore: store, overridePolicy: policy)
                #expect(store.entries.isEmpty && !service.overridesApply, "the store is never read")
                #expect(!service.flag)
                #expect(throws: ConfigurationError.overridesDisabled) { try service.setOverride(true, for: \.flag) }
                let mock = MockConfigurationService(overridePolicy: policy)
                #expect(throws: ConfigurationError.overridesDisabled) { try mock.setOverride(true, for: \.flag) }
            }
            let store = FileOverrideStore(url: folder.storeURL())
            let service = LiveConfigurationService(
                catalog: try fixtureCatalog(), overrideStore: store, watchMode: nil, overridePolicy: .allBuilds)
            #expect(service.flag, "allBuilds reads the store in any build")
            #expect(try Data(contentsOf: folder.storeURL()) == bytes)
        }
    }
#else
    /// Run with `swift test --disable-default-traits --filter OverridesCompiledOutTests` (CI does).
    @Suite("DebugOverrides trait off: no build applies an override, whatever the policy")
    struct OverridesCompiledOutTests {
        typealias Fixture = ConfigurationScopes.Fixture

        @Test("a store file full of overrides is never read, and setting one is refused")
        func storeIgnored() throws {
            let folder = TemporaryFolder()
            let writer = FileOverrideStore(url: folder.storeURL())
            try writer.set("Y", forKey: Fixture.FlagKey.name)
            try writer.set("99", forKey: Fixture.CountKey.name)
            let bytes = try Data(contentsOf: folder.storeURL())

            for policy in ConfigurationOverridePolicy.allCases {
                #expect(!policy.appliesInThisBuild)
                let store = FileOverrideStore(url: folder.storeURL())
                let service = LiveConfigurationService(
                    serverValues: [Fixture.FlagKey.name: "N"],
                    catalog: try fixtureCatalog(),
                    overrideStore: store,
                    overridePolicy: policy
                )
                #expect(!service.overridesApply)
                #expect(store.entries.isEmpty, "the store was read")
                #expect(service.flag == false)
                #expect(service.resolution(of: Fixture.FlagKey.self).source == .server)
                #expect(service.count == 3)
                #expect(throws: ConfigurationError.overridesDisabled) {
                    try service.setOverride(true, for: Fixture.FlagKey.self)
                }
                #expect(throws: ConfigurationError.overridesDisabled) { try service.removeAllOverrides() }
            }
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
            let service = LiveConfigurationService(overrides: [Fixture.FlagKey.name: "Y"], overridePolicy: .allBuilds)
            #expect(service.flag == false)
            #expect(service.overrides.isEmpty)
            let mock = MockConfigurationService(overridePolicy: .allBuilds)
            #expect(throws: ConfigurationError.overridesDisabled) {
                try mock.setOverride(true, for: Fixture.FlagKey.self)
            }
        }
    }
#endif
