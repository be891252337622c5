import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

@Suite(
    "etcd override store: unreachable etcd, authentication, profiles, the factory",
    .enabled(if: EtcdFixture.available, "etcd is not installed (scripts/setup-debian installs etcd-server)"))
struct EtcdStoreAccessTests {
    typealias Fixture = ConfigurationScopes.Fixture

    @Test("etcd out of reach: the read and every change fail with the reason, nothing applies, the service works")
    func unreachable() throws {
        let url = URL(string: "etcd://127.0.0.1:\(FixtureHTTPServer.closedPort())/test/nowhere")!
        let store = try EtcdOverrideStore(url: url, timeout: .seconds(2), environment: [:])
        let service = LiveConfigurationService(
            serverValues: [Fixture.FlagKey.name: "Y"], catalog: try fixtureCatalog(), overrideStore: store,
            watchMode: nil, overridePolicy: .allBuilds)
        let error = try #require(store.lastError)
        #expect(error.kind == .io)
        #expect(
            error.description
                == "\(url.absoluteString): cannot read the overrides from etcd: connection refused; no override from "
                + "etcd applies until it can be read")
        #expect(service.flag, "server values apply")
        let refused = #expect(throws: OverrideStoreError.self) {
            try service.setOverride(rawValue: "N", forKeyNamed: Fixture.FlagKey.name, note: nil)
        }
        #expect(refused?.problem.hasSuffix("connection refused; nothing was saved") == true)
        #expect(service.flag && service.overrides.isEmpty)
    }

    @Test("a URL that names no prefix, or is no URL, is refused with what to write instead")
    func badLocations() {
        for text in ["etcd://127.0.0.1:2379", "etcd://127.0.0.1:2379/", "etcd:///x", "etcd://h:1/p?q=1"] {
            let error = #expect(throws: OverrideStoreError.self) { try OverrideStores.store(for: text) }
            #expect(error?.problem.contains("expected etcd://HOST:PORT/PREFIX") == true, "\(text)")
        }
        #expect(throws: OverrideStoreError.self) { try OverrideStores.store(for: "") }
        #expect(OverrideStores.isEtcd("ETCD://h:1/p") && OverrideStores.isEtcd("etcds://h/p"))
        #expect(!OverrideStores.isEtcd("/tmp/etcd://x") && !OverrideStores.isEtcd("etcd.json"))
    }

    @Test("the factory and CONFIG_OVERRIDES_STORE pick etcd or a file; CONFIG_OVERRIDES_FILE still names a file")
    func factory() throws {
        let folder = TemporaryFolder()
        let file = folder.storeURL().path
        let etcd = "etcd://127.0.0.1:2379/shop/overrides"
        #expect(try OverrideStores.store(for: etcd).location == etcd)
        #expect((try OverrideStores.store(for: file) as? FileOverrideStore)?.url.path == file)
        let home = ["HOME": folder.url.path]
        #expect(
            try OverrideStores.defaultStore(appName: "a", environment: home + ["CONFIG_OVERRIDES_STORE": etcd]).location
                == etcd)
        #expect(
            try OverrideStores.defaultStore(
                appName: "a", environment: home + ["CONFIG_OVERRIDES_STORE": file, "CONFIG_OVERRIDES_FILE": "/x"]
            ).location == file)
        #expect(
            try OverrideStores.defaultStore(appName: "a", environment: home + ["CONFIG_OVERRIDES_FILE": file]).location
                == file)
        #expect(
            try OverrideStores.defaultStore(appName: "a", environment: home).location
                == folder.url.path + "/.local/state/a/overrides.json")
        // Credentials never show in the location.
        let secret = try OverrideStores.store(for: "etcd://qa:secret@127.0.0.1:2379/shop/overrides")
        #expect(secret.location == etcd)
    }

    @Test("export, import (merge and replace) and reset work on an etcd store as on a file")
    func profiles() throws {
        let etcd = try EtcdFixture.shared()
        let prefix = EtcdFixture.prefix("profiles")
        let store = try EtcdFixture.store(etcd, prefix: prefix)
        try store.modify { entries in
            entries[Fixture.FlagKey.name] = OverrideEntry(value: "Y", note: "exported")
            entries["orphan.key"] = OverrideEntry(value: "x", preservedFields: ["future": "true"])
        }
        try EtcdFixture.put(Array(#"{"value": 1}"#.utf8), at: "\(prefix)/quarantined", in: etcd)
        try EtcdFixture.put([0xFF], at: "\(prefix)/binary", in: etcd)
        let profile = String(decoding: store.exportedProfile(), as: UTF8.self)
        #expect(profile.contains(#""orphan.key": {"future": true, "#))
        #expect(profile.contains(#""quarantined": {"value": 1}"#), "an entry that is not valid is exported as found")
        #expect(!profile.contains("binary"), "bytes that are not JSON cannot be")

        let folder = TemporaryFolder()
        let exported = folder.url.appendingPathComponent("profile.json")
        try store.export(to: exported)
        let copy = try EtcdFixture.store(etcd, prefix: EtcdFixture.prefix("copy"))
        let plan = try copy.planImport(from: exported, mode: .merge, catalog: try fixtureCatalog())
        #expect(plan.added == ["orphan.key", Fixture.FlagKey.name] && plan.unknownKeys == ["orphan.key"])
        #expect(plan.entryProblems.map(\.key) == ["quarantined"])
        try copy.apply(plan)
        #expect(copy.entries == store.entries)

        // Replace: the store ends up holding exactly the profile, entries that are not valid included.
        let scenario = folder.url.appendingPathComponent("scenario.json")
        try Data(#"{"test.feature.retry_count": "5"}"#.utf8).write(to: scenario)
        try store.apply(try store.planImport(from: scenario, mode: .replace, catalog: nil))
        #expect(try EtcdFixture.keys(under: prefix, in: etcd).keys.sorted() == ["\(prefix)/test.feature.retry_count"])
        #expect(store.problems.isEmpty && store.entries.keys.sorted() == ["test.feature.retry_count"])
    }

    @Test("a change of 300 keys is made in transactions of at most 128, and every key arrives")
    func largeChange() throws {
        let etcd = try EtcdFixture.shared()
        let prefix = EtcdFixture.prefix("large")
        let store = try EtcdFixture.store(etcd, prefix: prefix)
        try store.modify { entries in
            for index in 0..<300 { entries["key.\(index)"] = OverrideEntry(value: String(index)) }
        }
        #expect(try EtcdFixture.keys(under: prefix, in: etcd).count == 300)
        try store.modify(replacingAll: true, reason: .change) { $0["only"] = OverrideEntry(value: "1") }
        #expect(try EtcdFixture.keys(under: prefix, in: etcd).keys.sorted() == ["\(prefix)/only"])
    }
}

@Suite(
    "etcd with authentication on: a user and password, a token, and clear refusals",
    .enabled(if: EtcdFixture.available, "etcd is not installed (scripts/setup-debian installs etcd-server)"))
struct EtcdAuthenticationTests {
    typealias Fixture = ConfigurationScopes.Fixture

    @Test("the store and the source work with credentials, and say why without them or with wrong ones")
    func authentication() async throws {
        let etcd = try EtcdTestServer.start()
        try etcd.enableAuthentication(user: "qa", password: "s3cret", prefix: "/team/")
        let store = try EtcdFixture.store(etcd, prefix: "/team/overrides", user: "qa:s3cret")
        try store.modify { $0[Fixture.FlagKey.name] = OverrideEntry(value: "Y") }
        #expect(store.startWatching() == "etcd watch")
        let writer = try EtcdOverrideStore(
            url: etcd.url(prefix: "/team/overrides"), environment: ["CONFIG_ETCD_USER": "qa:s3cret"])
        try writer.modify { $0[Fixture.CountKey.name] = OverrideEntry(value: "8") }
        #expect(await pollUntil(within: 10) { store.entry(forKey: Fixture.CountKey.name)?.value == "8" })
        #expect(store.liveReloadProblem == nil)

        let anonymous = try EtcdOverrideStore(url: etcd.url(prefix: "/team/overrides"), environment: [:])
        #expect(anonymous.reload()?.problem.contains("etcd has authentication on: give a user") == true)
        let wrong = try EtcdOverrideStore(url: etcd.url(prefix: "/team/overrides", user: "qa:nope"), environment: [:])
        #expect(wrong.reload()?.problem.contains("etcd refused the user \"qa\"") == true)
        let outside = try EtcdOverrideStore(url: etcd.url(prefix: "/other", user: "qa:s3cret"), environment: [:])
        #expect(outside.reload()?.problem.contains("permission denied") == true)

        // A token issued by etcd, given as it is.
        let token = try etcd.authenticate(user: "qa", password: "s3cret")
        let source = try EtcdServerValuesSource(url: etcd.url(prefix: "/team/values", user: "qa:s3cret"))
        _ = try etcd.gateway(
            "/v3/kv/put", body: #"{"key": "\#(base64("/team/values/k"))", "value": "\#(base64("v"))"}"#, token: token)
        #expect(
            try await source.fetch(ifChangedSince: .init()) == .values(["k": "v"], validators: try await etag(source)))
        let anonymousSource = try EtcdServerValuesSource(url: etcd.url(prefix: "/team/values"))
        let refusal = await #expect(throws: ServerSyncError.self) {
            try await anonymousSource.fetch(ifChangedSince: .init())
        }
        #expect(refusal?.reason.contains("authentication on") == true)
        let tokenStore = try EtcdOverrideStore(
            url: etcd.url(prefix: "/team/overrides"), environment: ["CONFIG_ETCD_TOKEN": token])
        #expect(tokenStore.reload() == nil && tokenStore.entries.count == 2)
        withExtendedLifetime(etcd) {}
    }
}

/// The validators a fetch of `source` returns now.
private func etag(_ source: EtcdServerValuesSource) async throws -> ServerValuesValidators {
    guard case .values(_, let validators) = try await source.fetch(ifChangedSince: .init()) else {
        throw FixtureError("a first fetch must bring values")
    }
    return validators
}

private func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }

extension Dictionary where Key == String, Value == String {
    fileprivate static func + (lhs: Self, rhs: Self) -> Self { lhs.merging(rhs) { $1 } }
}
