import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationTesting
import Testing

/// One write path: the live service (file or memory) and the mock change overrides the same way, through their
/// store, keeping metadata.
@Suite("One write path: overrides through the store, with their metadata")
struct OverrideLayerTests {
    typealias Keys = ConfigurationScopes.Fixture
    static let catalog = try! ConfigurationCatalog(scopes: [ConfigurationScopes.Fixture.self])

    /// The three kinds of service the package has, each with server value 5 for the retry count.
    static func services(in folder: TemporaryFolder) -> [(String, any ConfigurationService)] {
        let server = [Keys.CountKey.name: "5"]
        return [
            (
                "file",
                LiveConfigurationService(
                    serverValues: server, catalog: catalog, overrideStore: FileOverrideStore(url: folder.storeURL()),
                    watchMode: nil, overridePolicy: .allBuilds)
            ),
            ("memory", LiveConfigurationService(serverValues: server, catalog: catalog, overridePolicy: .allBuilds)),
            ("mock", MockConfigurationService(serverValues: server, catalog: catalog)),
        ]
    }

    @Test("a note survives a value change; an empty note removes it; time and server value are recorded")
    func notesKept() throws {
        let folder = TemporaryFolder()
        for (kind, service) in Self.services(in: folder) {
            try service.setOverride(rawValue: "7", forKeyNamed: Keys.CountKey.name, note: "ticket QA-12")
            try service.setOverride(rawValue: "8", forKeyNamed: Keys.CountKey.name)
            try service.updateOverrides([Keys.CountKey.name: "9"])
            var entry = try #require(service.overrideStore.entry(forKey: Keys.CountKey.name), "\(kind)")
            #expect(entry.value == "9", "\(kind)")
            #expect(entry.note == "ticket QA-12", "\(kind): the note stays when the value changes")
            #expect(entry.serverValueWhenSet == "5", "\(kind)")
            #expect(entry.setAt != nil, "\(kind)")
            #expect(service[Keys.CountKey.self] == 9, "\(kind): applied when the call returns")
            try service.setOverride(rawValue: "9", forKeyNamed: Keys.CountKey.name, note: "")
            entry = try #require(service.overrideStore.entry(forKey: Keys.CountKey.name))
            #expect(entry.note == nil, "\(kind): an empty note removes it")
        }
    }

    @Test("restoreOverrides puts entries back exactly, unknown keys and values the key rejects included")
    func restore() throws {
        let folder = TemporaryFolder()
        let setAt = Date(timeIntervalSince1970: 1_764_425_100)
        let entries: [String: OverrideEntry?] = [
            Keys.CountKey.name: OverrideEntry(value: "lots", setAt: setAt, serverValueWhenSet: "4", note: "n"),
            "removed.key": OverrideEntry(value: "Y", setAt: nil),
            Keys.FlagKey.name: nil,
        ]
        for (kind, service) in Self.services(in: folder) {
            try service.setOverride(rawValue: "Y", forKeyNamed: Keys.FlagKey.name)
            try service.restoreOverrides(entries)
            #expect(service.overrideStore.entry(forKey: Keys.CountKey.name) == entries[Keys.CountKey.name]!, "\(kind)")
            #expect(service.overrideStore.entry(forKey: "removed.key")?.value == "Y", "\(kind)")
            #expect(service.overrideStore.entry(forKey: Keys.FlagKey.name) == nil, "\(kind)")
            #expect(service.overrides[Keys.CountKey.name] == "lots", "\(kind): stored, and rejected by the key")
            #expect(service.resolution(of: Keys.CountKey.self).source == .server, "\(kind)")
        }
    }

    @Test("with overrides off in this build, every write path throws and nothing is stored")
    func overridesOff() throws {
        let store = InMemoryOverrideStore()
        let service = LiveConfigurationService(
            catalog: Self.catalog, overrideStore: store, watchMode: nil, overridePolicy: .debugBuildsOnly)
        guard !service.overridesApply else { return }  // a debug build: the policy applies overrides
        #expect(throws: ConfigurationError.overridesDisabled) {
            try service.restoreOverrides([Keys.CountKey.name: OverrideEntry(value: "1")])
        }
        #expect(throws: ConfigurationError.overridesDisabled) { try service.updateOverrides([Keys.CountKey.name: "1"]) }
        #expect(store.entries.isEmpty)
    }

    @Test("the in-memory store refuses what a file reader would refuse, and announces each change once")
    func inMemoryStore() throws {
        let store = InMemoryOverrideStore()
        let changes = Locked<[Set<String>]>([])
        let observation = store.observe { change in changes.withLock { $0.append(change.changedKeys) } }
        try store.modify { $0["a"] = OverrideEntry(value: "1") }
        try store.modify { $0["a"] = OverrideEntry(value: "1", setAt: $0["a"]?.setAt) }  // no change
        #expect(throws: OverrideStoreError.self) {
            try store.modify { $0["b"] = OverrideEntry(value: "x", note: String(repeating: "n", count: 5_000)) }
        }
        try store.removeAll()
        #expect(changes.withLock { $0 } == [["a"], ["a"]])
        #expect(store.entries.isEmpty)
        observation.cancel()
    }
}

/// One place that decides what a key's status is, for the menu and the command line.
@Suite("ConfigurationKeyStatus")
struct KeyStatusTests {
    let descriptor = ConfigurationKeyDescriptor(ConfigurationScopes.Fixture.FlagKey.self, scopeName: "Fixture")

    @Test("a server value the key rejects stays a problem under an override")
    func serverRejectedUnderOverride() {
        let status = ConfigurationKeyStatus(descriptor, serverValue: "y", override: OverrideEntry(value: "Y"))
        #expect(status.source == .overridden)
        #expect(status.value == "Y")
        #expect(status.isServerValueRejected)
        #expect(!status.isOverrideNotApplied)
        #expect(status.hasProblem)
    }

    @Test("override and expiry are values: set, cleared, copied and compared as such; a status stays small")
    func overrideIsAValue() {
        let entry = OverrideEntry(value: "Y", setAt: Date(timeIntervalSince1970: 1_764_000_000), note: "QA")
        let plain = ConfigurationKeyStatus(descriptor, serverValue: "N", override: nil)
        #expect(plain.override == nil && plain.expiration == nil)
        var changed = plain
        changed.override = entry
        #expect(changed.override == entry && changed.expiration == nil)
        #expect(plain.override == nil, "the copy it was made from is unchanged")
        #expect(changed != plain)
        // Built either way, equal statuses are equal and hash alike.
        var built = ConfigurationKeyStatus(descriptor, serverValue: "N", override: entry)
        built.value = changed.value
        built.source = changed.source
        built.isRedundant = changed.isRedundant
        #expect(built == changed && built.hashValue == changed.hashValue)
        changed.expiration = .time(Date(timeIntervalSince1970: 1_764_000_100))
        #expect(changed.override == entry && changed.isExpired && changed != built)
        changed.override?.note = "changed"
        #expect(changed.override?.note == "changed" && changed.isExpired)
        changed.override = nil
        changed.expiration = nil
        #expect(changed.override == nil && !changed.isExpired)
        var cleared = plain
        cleared.value = changed.value
        cleared.source = changed.source
        cleared.isRedundant = changed.isRedundant
        #expect(changed == cleared && changed.hashValue == cleared.hashValue, "cleared equals never set")
        // A menu holds one status a key: the override and its expiry take one word when there are none.
        #expect(MemoryLayout<ConfigurationKeyStatus>.stride <= 112)
    }

    @Test("staleness: only an entry with a time whose recorded server value differs")
    func staleness() {
        let then = Date()
        #expect(
            ConfigurationKeyStatus(
                descriptor, serverValue: "N", override: OverrideEntry(value: "Y", setAt: then, serverValueWhenSet: "Y")
            ).isStale)
        #expect(
            !ConfigurationKeyStatus(
                descriptor, serverValue: "N", override: OverrideEntry(value: "Y", setAt: then, serverValueWhenSet: "N")
            ).isStale)
        #expect(
            !ConfigurationKeyStatus(descriptor, serverValue: "N", override: OverrideEntry(value: "Y", setAt: nil))
                .isStale, "hand-written: never stale")
    }

    @Test("an entry the store kept without applying it: not applied, a problem; an unreadable field alone: applied")
    func storeProblems() {
        let quarantined = OverrideStoreProblem(
            key: descriptor.name, field: nil, reason: "\"value\" must be a string", storedJSON: "{\"value\": 1}")
        let status = ConfigurationKeyStatus(descriptor, serverValue: nil, override: nil, storeProblems: [quarantined])
        #expect(status.isQuarantined && status.isOverrideNotApplied && status.hasProblem)
        #expect(status.source == .default)
        let field = OverrideStoreProblem(
            key: descriptor.name, field: "setAt", reason: "month 13", storedJSON: "\"2026-13-01\"")
        let applied = ConfigurationKeyStatus(
            descriptor, serverValue: nil, override: OverrideEntry(value: "Y"), storeProblems: [field])
        #expect(!applied.isOverrideNotApplied && applied.hasProblem && applied.source == .overridden)
    }
}
