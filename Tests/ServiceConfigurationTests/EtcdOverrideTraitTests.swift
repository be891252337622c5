import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

#if DebugOverrides
    @Suite(
        "Override policy with an etcd store: read only where overrides apply",
        .enabled(if: EtcdFixture.available, "etcd is not installed (scripts/setup-debian installs etcd-server)"))
    struct EtcdOverridePolicyTests {
        typealias Fixture = ConfigurationScopes.Fixture

        @Test("where the policy refuses, etcd is never asked (not even an unreachable one); allBuilds reads it")
        func policy() throws {
            let etcd = try EtcdFixture.shared()
            let prefix = EtcdFixture.prefix("policy")
            try EtcdFixture.put(Array(#"{"value": "Y"}"#.utf8), at: "\(prefix)/\(Fixture.FlagKey.name)", in: etcd)
            let nowhere = URL(string: "etcd://127.0.0.1:\(FixtureHTTPServer.closedPort())/test/nowhere")!
            for policy in ConfigurationOverridePolicy.allCases where !policy.appliesInThisBuild {
                for store in [try EtcdFixture.store(etcd, prefix: prefix), try EtcdOverrideStore(url: nowhere)] {
                    let service = LiveConfigurationService(
                        catalog: try fixtureCatalog(), overrideStore: store, overridePolicy: policy)
                    #expect(store.entries.isEmpty && store.lastError == nil, "a read of the unreachable one fails")
                    #expect(!service.flag && !service.overridesApply)
                }
            }
            let store = try EtcdFixture.store(etcd, prefix: prefix)
            let service = LiveConfigurationService(
                catalog: try fixtureCatalog(), overrideStore: store, watchMode: nil, overridePolicy: .allBuilds)
            #expect(service.flag, "allBuilds reads the store in any build")
        }
    }
#else
    /// Run with `swift test --disable-default-traits --filter OverridesCompiledOutTests` (CI does).
    @Suite(
        "DebugOverrides trait off: an etcd store is ignored exactly as a file",
        .enabled(if: EtcdFixture.available, "etcd is not installed (scripts/setup-debian installs etcd-server)"))
    struct EtcdOverridesCompiledOutTests {
        typealias Fixture = ConfigurationScopes.Fixture

        @Test("etcd full of overrides is never asked, and setting one is refused")
        func storeIgnored() throws {
            let etcd = try EtcdFixture.shared()
            let prefix = EtcdFixture.prefix("compiled-out")
            try EtcdFixture.put(Array(#"{"value": "Y"}"#.utf8), at: "\(prefix)/\(Fixture.FlagKey.name)", in: etcd)
            let before = try EtcdFixture.keys(under: prefix, in: etcd)
            let nowhere = URL(string: "etcd://127.0.0.1:\(FixtureHTTPServer.closedPort())/test/nowhere")!
            for policy in ConfigurationOverridePolicy.allCases {
                for store in [try EtcdFixture.store(etcd, prefix: prefix), try EtcdOverrideStore(url: nowhere)] {
                    let service = LiveConfigurationService(
                        serverValues: [Fixture.FlagKey.name: "N"], catalog: try fixtureCatalog(), overrideStore: store,
                        overridePolicy: policy)
                    #expect(!service.overridesApply && !service.flag)
                    // A read of the unreachable one would have recorded "connection refused".
                    #expect(store.entries.isEmpty && store.lastError == nil, "etcd was asked")
                    #expect(throws: ConfigurationError.overridesDisabled) {
                        try service.setOverride(true, for: Fixture.FlagKey.self)
                    }
                }
            }
            #expect(try EtcdFixture.keys(under: prefix, in: etcd) == before)
        }
    }
#endif
