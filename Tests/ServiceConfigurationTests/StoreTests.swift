import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("FileOverrideStore: format, metadata, location, permissions")
struct StoreTests {
    typealias Fixture = ConfigurationScopes.Fixture

    @Test("overrides survive a new store instance, with time, server value and note")
    func persistence() throws {
        let folder = TemporaryFolder()
        let before = Date()
        let store = FileOverrideStore(url: folder.storeURL())
        try store.set("Y", forKey: Fixture.FlagKey.name, serverValue: "N", note: "scenario 12")
        try store.set("7", forKey: Fixture.CountKey.name)
        let reopened = FileOverrideStore(url: folder.storeURL())
        #expect(reopened.reload() == nil)
        let entry = try #require(reopened.entries[Fixture.FlagKey.name])
        #expect(entry.value == "Y")
        #expect(entry.serverValueWhenSet == "N")
        #expect(entry.note == "scenario 12")
        let setAt = try #require(entry.setAt)
        #expect(setAt >= before.addingTimeInterval(-0.001) && setAt <= Date())
        #expect(reopened.entries[Fixture.CountKey.name]?.value == "7")
        try reopened.removeValue(forKey: Fixture.CountKey.name)
        #expect(store.reload() == nil)
        #expect(store.entries.keys.sorted() == [Fixture.FlagKey.name])
    }

    @Test("the file is sorted, one override per line, and byte-for-byte deterministic")
    func format() throws {
        let folder = TemporaryFolder()
        let store = FileOverrideStore(url: folder.storeURL())
        try store.modify { entries in
            let time = Date(timeIntervalSince1970: 1_764_425_100.25)
            entries["b.key"] = OverrideEntry(value: "line\nbreak \"quoted\"", setAt: time)
            entries["a.key"] = OverrideEntry(value: "Y", setAt: time, serverValueWhenSet: "N", note: "ä")
        }
        let text = try String(contentsOf: folder.storeURL(), encoding: .utf8)
        #expect(
            text == """
                {
                  "format": "service-configuration-overrides",
                  "version": 1,
                  "overrides": {
                    "a.key": {"note": "ä", "serverValueWhenSet": "N", "setAt": "2025-11-29T14:05:00.250Z", "value": "Y"},
                    "b.key": {"setAt": "2025-11-29T14:05:00.250Z", "value": "line\\nbreak \\"quoted\\""}
                  }
                }

                """
        )
        try store.removeAll()
        #expect(
            try String(contentsOf: folder.storeURL(), encoding: .utf8)
                == "{\n  \"format\": \"service-configuration-overrides\",\n  \"version\": 1,\n  \"overrides\": {}\n}\n"
        )
    }

    @Test("a hand-written file with a BOM, nulls and no timestamps is read")
    func handWritten() throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let text =
            "\u{FEFF}{\"overrides\": {\"x\": {\"value\": \"1\", \"note\": null}}, \"version\": 1, \"format\": \"service-configuration-overrides\"}"
        try Data(text.utf8).write(to: url)
        chmod(url.path, 0o600)
        let store = FileOverrideStore(url: url)
        #expect(store.reload() == nil)
        #expect(store.entries == ["x": OverrideEntry(value: "1", setAt: nil)])
    }

    @Test("file mode 0600 in a folder created with mode 0700")
    func permissionsOnCreate() throws {
        let folder = TemporaryFolder()
        let store = FileOverrideStore(url: folder.storeURL())
        try store.set("Y", forKey: "a")
        #expect(mode(of: folder.storeURL().path) == 0o600)
        #expect(mode(of: folder.storeURL().deletingLastPathComponent().path) == 0o700)
        #expect(mode(of: folder.storeURL().path + ".lock") == 0o600)
    }

    @Test("a store file others can write is refused untouched, with the fix in the message")
    func looseFileRefused() throws {
        let folder = TemporaryFolder()
        let store = FileOverrideStore(url: folder.storeURL())
        try store.set("Y", forKey: Fixture.FlagKey.name)
        chmod(folder.storeURL().path, 0o666)
        let bytes = try Data(contentsOf: folder.storeURL())
        let error = try #require(FileOverrideStore(url: folder.storeURL()).reload())
        #expect(error.kind == .insecure)
        #expect(error.description.contains(folder.storeURL().path))
        #expect(error.description.contains("writable by other users (mode 666)"))
        #expect(error.description.contains("chmod 600"))
        #expect(try Data(contentsOf: folder.storeURL()) == bytes)
        let service = LiveConfigurationService(
            serverValues: [Fixture.FlagKey.name: "N"],
            overrideStore: FileOverrideStore(url: folder.storeURL()),
            watchMode: nil
        )
        #expect(service.flag == false)
        #expect(service.overrideStore.lastError?.kind == .insecure)
    }

    @Test("a folder others can write is refused")
    func looseFolderRefused() throws {
        let folder = TemporaryFolder()
        let store = FileOverrideStore(url: folder.storeURL())
        try store.set("Y", forKey: "a")
        chmod(folder.storeURL().deletingLastPathComponent().path, 0o777)
        let error = try #require(FileOverrideStore(url: folder.storeURL()).reload())
        #expect(error.kind == .insecure)
        #expect(error.description.contains("chmod 700"))
    }

    @Test("a store file owned by another user is refused", .enabled(if: geteuid() == 0, "needs root to chown"))
    func foreignOwnerRefused() throws {
        let folder = TemporaryFolder()
        let store = FileOverrideStore(url: folder.storeURL())
        try store.set("Y", forKey: "a")
        chown(folder.storeURL().path, 65534, 65534)
        let error = try #require(FileOverrideStore(url: folder.storeURL()).reload())
        #expect(error.kind == .insecure)
        #expect(error.description.contains("belongs to another user (uid 65534)"))
    }

    @Test("default location on Linux: CONFIG_OVERRIDES_FILE, then XDG_STATE_HOME, then ~/.local/state")
    func location() {
        func url(_ environment: [String: String]) -> String {
            FileOverrideStore.defaultURL(appName: "demo", environment: environment, convention: .xdg).path
        }
        #expect(url(["HOME": "/home/qa"]) == "/home/qa/.local/state/demo/overrides.json")
        #expect(url(["HOME": "/home/qa", "XDG_STATE_HOME": "/var/st"]) == "/var/st/demo/overrides.json")
        #expect(url(["HOME": "/home/qa", "XDG_STATE_HOME": "relative"]) == "/home/qa/.local/state/demo/overrides.json")
        #expect(
            url(["HOME": "/home/qa", "XDG_STATE_HOME": "/var/st", "CONFIG_OVERRIDES_FILE": "/tmp/s.json"])
                == "/tmp/s.json")
    }

    @Test("service with a store: overrides are saved before they take effect and survive restarts and syncs")
    func serviceWithStore() throws {
        let folder = TemporaryFolder()
        let catalog = try fixtureCatalog()
        do {
            let service = LiveConfigurationService(
                serverValues: [Fixture.CountKey.name: "5"],
                catalog: catalog,
                overrideStore: FileOverrideStore(url: folder.storeURL()),
                watchMode: nil
            )
            try service.setOverride(rawValue: "9", forKeyNamed: Fixture.CountKey.name, note: "why not")
            #expect(service.count == 9)
            let onDisk = FileOverrideStore(url: folder.storeURL())
            onDisk.reload()
            #expect(onDisk.entries[Fixture.CountKey.name]?.serverValueWhenSet == "5")
            #expect(onDisk.entries[Fixture.CountKey.name]?.note == "why not")
            service.updateServerValues([Fixture.CountKey.name: "6"])
            #expect(service.count == 9)
        }
        let restarted = LiveConfigurationService(
            serverValues: [Fixture.CountKey.name: "6"],
            catalog: catalog,
            overrideStore: FileOverrideStore(url: folder.storeURL()),
            watchMode: nil
        )
        #expect(restarted.count == 9)
        #expect(restarted.resolution(of: Fixture.CountKey.self).source == .overridden)
        let diagnostics = restarted.overrideStore.diagnostics(catalog: catalog, serverValues: restarted.serverValues)
        #expect(diagnostics == [.stale(key: Fixture.CountKey.name, serverValueWhenSet: "5", currentServerValue: "6")])
        try restarted.removeAllOverrides()
        #expect(restarted.count == 6)
    }

    @Test("orphans and undecodable entries are kept through other writes and reported, never applied")
    func orphansKept() throws {
        let folder = TemporaryFolder()
        let catalog = try fixtureCatalog()
        let store = FileOverrideStore(url: folder.storeURL())
        try store.modify { entries in
            entries["removed.feature.enabled"] = OverrideEntry(value: "Y")
            entries[Fixture.FlagKey.name] = OverrideEntry(value: "yes")
        }
        let service = LiveConfigurationService(
            serverValues: [Fixture.FlagKey.name: "Y"],
            catalog: catalog,
            overrideStore: FileOverrideStore(url: folder.storeURL()),
            watchMode: nil
        )
        #expect(service.flag == true)
        let resolution = service.resolution(of: Fixture.FlagKey.self)
        #expect(resolution.source == .server)
        #expect(resolution.rejections.first?.source == .overridden)
        try service.setOverride(rawValue: "7", forKeyNamed: Fixture.CountKey.name)
        let reread = FileOverrideStore(url: folder.storeURL())
        reread.reload()
        #expect(
            reread.entries.keys.sorted()
                == [Fixture.FlagKey.name, "removed.feature.enabled", Fixture.CountKey.name].sorted())
        let diagnostics = reread.diagnostics(catalog: catalog, serverValues: service.serverValues)
        #expect(diagnostics.contains(.orphan(key: "removed.feature.enabled")))
        #expect(
            diagnostics.contains(
                .invalid(key: Fixture.FlagKey.name, value: "yes", reason: "expected Y or N, got \"yes\"")))
    }
}

@Suite("FileOverrideStore: review fixes")
struct StoreEdgeTests {
    @Test(
        "a hand-written plain map pointed at with CONFIG_OVERRIDES_FILE is read, not moved aside, and upgraded on save")
    func plainMapStore() throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("scenario.json")
        try Data(#"{"test.feature.flag.enabled": "Y", "test.feature.retry_count": "9"}"#.utf8).write(to: url)
        chmod(url.path, 0o600)
        let service = LiveConfigurationService(
            catalog: try fixtureCatalog(),
            overrideStore: FileOverrideStore(
                url: FileOverrideStore.defaultURL(appName: "x", environment: ["CONFIG_OVERRIDES_FILE": url.path])),
            watchMode: nil
        )
        #expect(service.overrideStore.lastError == nil)
        #expect(service.flag)
        #expect(service.count == 9)
        #expect(
            service.overrideStore.entries["test.feature.flag.enabled"]?.setAt == nil, "no time: never reported stale")
        try service.setOverride(rawValue: "4", forKeyNamed: "test.feature.retry_count")
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.hasPrefix("{\n  \"format\": \"service-configuration-overrides\""))
        #expect(text.contains(#""test.feature.flag.enabled": {"value": "Y"}"#))
    }

    @Test("a folder others can write is refused before the first file is written")
    func looseFolderBeforeWriting() throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("shared/overrides.json")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        chmod(url.deletingLastPathComponent().path, 0o777)
        let error = #expect(throws: OverrideStoreError.self) { try FileOverrideStore(url: url).set("Y", forKey: "k") }
        #expect(error?.kind == .insecure)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test("the mock can be given a catalog, so tools using string-level operations work on it")
    func mockRegister() throws {
        let mock = MockConfigurationService()
        #expect(throws: ConfigurationError.self) {
            try mock.setOverride(rawValue: "Y", forKeyNamed: "test.feature.flag.enabled")
        }
        mock.register(try fixtureCatalog())
        try mock.setOverride(rawValue: "Y", forKeyNamed: "test.feature.flag.enabled")
        #expect(mock.flag)
    }

    @Test("a Bool key with its own wire strings: the toggle writes them, and manifests keep them")
    func customToggleStrings() throws {
        enum TrueFalseKey: ConfigurationKey {
            static let name = "legacy.flag"
            static let defaultValue = false
            static func decode(from string: String) throws -> Bool {
                guard let value = Bool(string) else {
                    throw ConfigurationDecodingError(expected: "true or false", got: string)
                }
                return value
            }
            static func encode(_ value: Bool) throws -> String? { String(value) }
        }
        let descriptor = ConfigurationKeyDescriptor(TrueFalseKey.self, scopeName: "Legacy")
        #expect(descriptor.control == .toggle)
        #expect(descriptor.toggleStrings == .init(on: "true", off: "false"))
        let catalog = try ConfigurationCatalog(scopes: [.init(name: "Legacy", keys: [descriptor])])
        let restored = try ConfigurationCatalog(manifest: catalog.manifestJSON())
        let copy = try #require(restored.descriptor(named: "legacy.flag"))
        #expect(copy.toggleStrings == descriptor.toggleStrings)
        #expect(try copy.validate("true") == "true")
        #expect(throws: ConfigurationDecodingError(expected: "true or false", got: "Y")) { try copy.validate("Y") }
    }
}
