import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the real `config-menu` with standard output sent to `output` (a full device, a pipe nobody reads).
func configMenu(_ arguments: [String], standardOutput output: FileHandle) throws -> ToolRun {
    try configMenu(arguments, standardOutput: .descriptor(output.fileDescriptor))
}

/// A pipe whose reading end is closed before the tool starts: its first write fails with EPIPE, every time.
func closedPipe() throws -> FileHandle {
    let pipe = Pipe()
    try pipe.fileHandleForReading.close()
    return pipe.fileHandleForWriting
}

/// The server snapshot beside the store as the commands see it: an unusable one is said, the time of the last sync
/// is told truly, and `status` and `sync` check their output like every other command.
@Suite("config-menu and the server snapshot: said when unusable, checked output", .serialized)
struct SnapshotCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-menu-snap-\(UUID().uuidString)")
    var store: URL { folder.appendingPathComponent("overrides.json") }
    var snapshot: URL { folder.appendingPathComponent("server-snapshot.json") }

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(folder.path, 0o700)
    }

    func run(_ arguments: String...) throws -> ToolRun { try configMenu(arguments + ["--store", store.path]) }

    func snapshotText(source: String, lastSync: String = "2026-01-01T00:00:00.000Z") -> String {
        """
        {"format": "service-configuration-server-snapshot", "version": 1, "source": "\(source)",
         "status": "fresh", "lastSync": "\(lastSync)", "values": {"function.chat.typing_interval_ms": "4321"}}
        """
    }

    func writeSnapshot(_ text: String, mode: mode_t = 0o600) throws {
        try Data(text.utf8).write(to: snapshot)
        chmod(snapshot.path, mode)
    }

    @Test(
        "a corrupt, mode-666 or empty-source snapshot: get and list print, then say what is wrong with the file, exit 4"
    )
    func unusableSnapshotIsSaid() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [(name: String, text: String, mode: mode_t, problem: String)] = [
            ("corrupt", "{\"format\": \"service-configuration-server-snapshot\", \"ver", 0o600, "not valid JSON"),
            ("mode 666", snapshotText(source: "http://127.0.0.1:1/values.json"), 0o666, "writable by other users"),
            ("empty source", snapshotText(source: ""), 0o600, "\"source\" is empty"),
        ]
        for unusable in cases {
            try writeSnapshot(unusable.text, mode: unusable.mode)
            for arguments in [
                ["get", "function.chat.typing_interval_ms"], ["list"], ["list", "--json"],
                ["get", "function.chat.typing_interval_ms", "--json"],
            ] {
                let result = try configMenu(arguments + ["--store", store.path])
                #expect(result.status == 4, "\(unusable.name), \(arguments): \(result.status) \(result.error)")
                #expect(result.output.contains("function.chat.typing_interval_ms"), "the output is printed first")
                #expect(!result.output.contains("4321"), "\(unusable.name): nothing of the snapshot is shown")
                #expect(
                    result.error.contains("server snapshot refused: \(snapshot.path)"),
                    "\(unusable.name), \(arguments): \(result.error)")
                #expect(result.error.contains(unusable.problem), "\(unusable.name): \(result.error)")
                #expect(result.error.contains("the output above shows no server values from it"))
            }
        }
        // A good snapshot: its values, exit 0, nothing said.
        try writeSnapshot(snapshotText(source: "http://127.0.0.1:1/values.json"))
        let good = try run("get", "function.chat.typing_interval_ms")
        #expect(good.status == 0, "\(good.error)")
        #expect(good.output.contains("4321") && good.error.isEmpty)
        // A corrupt store and an unusable snapshot: both are said.
        try writeSnapshot(snapshotText(source: ""))
        try Data("not json".utf8).write(to: store)
        let both = try run("list")
        #expect(both.status == 4)
        #expect(both.error.contains("server snapshot refused: ") && both.error.contains("\"source\" is empty"))
        #expect(both.error.contains("the output above shows the values without any stored override"))
    }

    @Test("status shows a last sync in the future as in the future, not as 0 s ago")
    func futureLastSync() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let inAnHour = Timestamp.format(Date().addingTimeInterval(3 * 3600 + 30))
        try writeSnapshot(snapshotText(source: "http://127.0.0.1:1/values.json", lastSync: inAnHour))
        let status = try run("status")
        #expect(status.status == 0, "\(status.error)")
        #expect(status.output.contains("last sync:     \(inAnHour) (3 h in the future)"), "\(status.output)")
        #expect(!status.output.contains("ago"))
    }

    @Test("status and sync on a full standard output exit 4 with the reason; on a closed pipe, 141 quietly")
    func checkedOutput() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try FixtureHTTPServer(values: ["function.chat.typing_interval_ms": "3000"])
        defer { server.stop() }
        #expect(try run("sync", "--server-url", server.url().absoluteString).status == 0)
        let commands = [["status"], ["status", "--json"], ["sync"], ["sync", "--json"]]
        for command in commands {
            let arguments = command + ["--store", store.path]
            let full = try configMenu(
                arguments, standardOutput: try #require(FileHandle(forWritingAtPath: "/dev/full")))
            #expect(full.status == 4, "\(command) > /dev/full")
            #expect(
                full.error == "config-menu: cannot write to standard output: No space left on device (errno 28)\n",
                "\(command): \(full.error)")
            let broken = try configMenu(arguments, standardOutput: try closedPipe())
            #expect(broken.status == 141, "\(command) | (closed): \(broken.status) \(broken.error)")
            #expect(broken.error.isEmpty, "\(command): \(broken.error)")
        }
    }
}
