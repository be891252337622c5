import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `--simulator`: the app's data container belongs to the app under test, which can plant symbolic links in it.
/// Inside it no link is followed (store, lock, journal, snapshot, reports), and nothing outside it is touched.
@Suite("config-menu --simulator follows no symbolic link inside the app's container", .serialized)
struct SimulatorContainerTests {
    let shop = "com.example.shop"
    let iPhone = "iPhone 16 Pro"

    /// A simulator with the shop app, its store folder `Library/Application Support/shop` (empty), and a folder
    /// outside the container holding a file that must never change (`outside/authorized_keys`).
    struct Machine {
        let simulators: FakeSimulators
        let container: URL
        let support: URL
        let outside: URL
        var precious: URL { outside.appendingPathComponent("authorized_keys") }
        static let preciousText = "ssh-ed25519 AAAA... qa@mac\n"

        /// Every name and content under `outside`, to compare before and after.
        func outsideTree() -> [String: String] {
            var result: [String: String] = [:]
            let enumerator = FileManager.default.enumerator(atPath: outside.path)
            while let name = enumerator?.nextObject() as? String {
                result[name] =
                    (try? String(contentsOf: outside.appendingPathComponent(name), encoding: .utf8)) ?? "(folder)"
            }
            return result
        }
    }

    func machine() throws -> Machine {
        let simulators = try FakeSimulators()
        try simulators.addDevice(iPhone, apps: [(shop, "Shop")])
        let container = simulators.container(of: shop, on: iPhone)
        let support = container.appendingPathComponent("Library/Application Support/shop", isDirectory: true)
        try FileManager.default.createDirectory(at: support, withIntermediateDirectories: true)
        let outside = simulators.root.appendingPathComponent("outside", isDirectory: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        chmod(outside.path, 0o700)
        let precious = outside.appendingPathComponent("authorized_keys")
        try Data(Machine.preciousText.utf8).write(to: precious)
        chmod(precious.path, 0o600)
        return Machine(simulators: simulators, container: container, support: support, outside: outside)
    }

    func link(_ path: URL, to target: URL) throws {
        try? FileManager.default.removeItem(at: path)
        #expect(symlink(target.path, path.path) == 0)
    }

    func expectRefused(_ run: ToolRun, naming link: URL, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.status == 4, "\(run.status): \(run.error)", sourceLocation: sourceLocation)
        #expect(
            run.error.contains("\(link.path) is a symbolic link inside "), "\(run.error)",
            sourceLocation: sourceLocation)
        #expect(run.error.contains("no link in it is followed"), sourceLocation: sourceLocation)
    }

    @Test("the store file a link to a file outside (~/.ssh/authorized_keys): every command refuses, nothing changes")
    func storeFileLink() throws {
        let machine = try machine()
        let store = machine.support.appendingPathComponent("overrides.json")
        try link(store, to: machine.precious)
        let before = machine.outsideTree()
        for arguments in [
            ["set", "function.album.like.enabled", "N"], ["reset", "--all"], ["list"],
            ["get", "function.album.like.enabled"], ["export"], ["undo", "--yes"], ["history"],
        ] {
            let run = try machine.simulators.run(arguments + ["--simulator", shop])
            expectRefused(run, naming: store)
        }
        #expect(machine.outsideTree() == before, "nothing renamed, replaced or created outside the container")
        #expect(try String(contentsOf: machine.precious, encoding: .utf8) == Machine.preciousText)
        let besideLink = try FileManager.default.contentsOfDirectory(atPath: machine.support.path)
        #expect(besideLink == ["overrides.json"], "no lock, journal or base beside the link either: \(besideLink)")
        let listing = try machine.simulators.run(["simulators"])
        #expect(listing.output.contains("unreadable: \(store.path) is a symbolic link inside "), "\(listing.output)")
    }

    @Test("the app's folder, or Library, a link to a folder outside: refused, nothing created there")
    func folderLinks() throws {
        for linked in ["Library/Application Support/shop", "Library/Application Support", "Library"] {
            let machine = try machine()
            let path = machine.container.appendingPathComponent(linked)
            try FileManager.default.removeItem(at: path)
            try link(path, to: machine.outside)
            let before = machine.outsideTree()
            let set = try machine.simulators.run(
                ["set", "function.album.like.enabled", "N", "--simulator", shop, "--app-name", "shop"])
            expectRefused(set, naming: path)
            let sync = try machine.simulators.run(["status", "--simulator", shop, "--app-name", "shop"])
            #expect(sync.status != 0)
            #expect(machine.outsideTree() == before, "\(linked): nothing created outside")
        }
    }

    @Test("the lock, journal, base and snapshot links to files outside: none is written through, the target kept")
    func siblingLinks() throws {
        let machine = try machine()
        let store = machine.support.appendingPathComponent("overrides.json")
        let server = try FixtureHTTPServer(values: ["function.chat.typing_interval_ms": "3500"])
        defer { server.stop() }
        #expect(
            try machine.simulators.run(
                ["set", "function.album.like.enabled", "N", "--simulator", shop, "--app-name", "shop"]
            ).status == 0)

        // The lock: the change is refused before anything is written.
        try link(URL(fileURLWithPath: store.path + ".lock"), to: machine.precious)
        let locked = try machine.simulators.run(["set", "function.album.like.enabled", "Y", "--simulator", shop])
        expectRefused(locked, naming: URL(fileURLWithPath: store.path + ".lock"))
        try FileManager.default.removeItem(atPath: store.path + ".lock")

        // The journal and its base: the change is saved in the container; the links are never written through.
        try link(URL(fileURLWithPath: store.path + ".journal"), to: machine.precious)
        try link(URL(fileURLWithPath: store.path + ".journaled"), to: machine.precious)
        let journaled = try machine.simulators.run(["set", "function.album.like.enabled", "Y", "--simulator", shop])
        #expect(journaled.status == 0, "\(journaled.error)")
        #expect(journaled.error.contains("warning: history: "), "\(journaled.error)")
        #expect(try String(contentsOf: store, encoding: .utf8).contains(#""value": "Y""#))
        let history = try machine.simulators.run(["history", "--simulator", shop])
        #expect(history.status == 4)
        #expect(!history.output.contains("ssh-ed25519"))

        // The snapshot: sync does not write it through the link, status does not read it.
        let snapshot = machine.support.appendingPathComponent("server-snapshot.json")
        try link(snapshot, to: machine.precious)
        let sync = try machine.simulators.run(
            ["sync", "--server-url", server.url().absoluteString, "--simulator", shop])
        #expect(sync.error.contains("\(snapshot.path) is a symbolic link inside "), "\(sync.error)")
        let status = try machine.simulators.run(["status", "--simulator", shop])
        #expect(status.status == 4)
        #expect(status.error.contains("\(snapshot.path) is a symbolic link inside "), "\(status.error)")

        #expect(try String(contentsOf: machine.precious, encoding: .utf8) == Machine.preciousText)
        #expect(machine.outsideTree().keys.sorted() == ["authorized_keys"], "nothing created beside the target")
    }

    @Test("the programs folder a link to a folder outside: its reports are not read")
    func reportsLink() throws {
        let machine = try machine()
        #expect(
            try machine.simulators.run(
                ["set", "function.album.like.enabled", "N", "--simulator", shop, "--app-name", "shop"]
            ).status == 0)
        let store = machine.support.appendingPathComponent("overrides.json")
        let now = Timestamp.format(Date())
        let report: [String: Any] = [
            "format": "service-configuration-program-report", "version": 1, "program": "planted", "pid": 4242,
            "store": store.path, "startedAt": now, "writtenAt": now, "endedAt": now, "recordsReads": true,
            "reads": ["function.album.like.enabled": ["firstRead": now, "currentValueFirstRead": now]],
        ]
        try JSONSerialization.data(withJSONObject: report).write(
            to: machine.outside.appendingPathComponent("planted-4242-1.json"))
        try link(machine.support.appendingPathComponent("programs"), to: machine.outside)
        let coverage = try machine.simulators.run(["coverage", "--simulator", shop])
        #expect(coverage.status == 1, "\(coverage.output)")
        #expect(!coverage.output.contains("planted"))
        #expect(
            coverage.error.contains("a symbolic link; reports are read from a real folder only"), "\(coverage.error)")
    }

    @Test("a container without links works as before: set, list, sync, status, history")
    func noLinks() throws {
        let machine = try machine()
        let server = try FixtureHTTPServer(values: ["function.chat.typing_interval_ms": "3500"])
        defer { server.stop() }
        for arguments in [
            ["set", "function.album.like.enabled", "N"], ["list", "--overridden"],
            ["sync", "--server-url", server.url().absoluteString], ["status"], ["history"],
        ] {
            let run = try machine.simulators.run(arguments + ["--simulator", shop, "--app-name", "shop"])
            #expect(run.status == 0, "\(arguments): \(run.error)")
        }
    }
}
