import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh folder under the system temporary folder, removed when the value is released.
final class TemporaryFolder: Sendable {
    let url: URL

    init() {
        let base = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
        url = base.appendingPathComponent("ServiceConfigurationTests-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        chmod(url.path, 0o700)
    }

    deinit {
        chmod(url.path, 0o700)
        try? FileManager.default.removeItem(at: url)
    }

    /// `overrides.json` (or `name`) inside a `state` subfolder that does not exist yet.
    func storeURL(_ name: String = "overrides.json") -> URL {
        url.appendingPathComponent("state", isDirectory: true).appendingPathComponent(name)
    }
}

/// The `store-test-helper` executable, built next to the test binary.
func storeTestHelperPath() -> String {
    let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var folder = testBinary.deletingLastPathComponent()
    // On Linux the test binary sits directly in the build folder; elsewhere it is inside an .xctest bundle.
    while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("store-test-helper").path),
        folder.path != "/"
    {
        folder = folder.deletingLastPathComponent()
    }
    return folder.appendingPathComponent("store-test-helper").path
}

/// Runs the helper to completion; returns its exit status, standard output and standard error.
@discardableResult
func runStoreHelper(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
    let run = try ChildProcess.run(storeTestHelperPath(), arguments)
    return (run.status, run.output, run.error)
}

/// Starts `executable` with its standard output in a file, waits (at most 60 s) until it has written a line
/// starting with `prefix` (it is under way), waits `delay` microseconds more and kills it with SIGKILL. Returns whether
/// the kill is what ended it, and every line it wrote (the file is complete once it has ended).
func killMidway(
    _ executable: String, _ arguments: [String], after delay: UInt32, prefix: String = "ok "
) throws -> (killed: Bool, lines: [Substring]) {
    let folder = TemporaryFolder()
    let output = folder.url.appendingPathComponent("output").path
    let child = try ChildProcess(
        executable, arguments, standardInput: .null, standardOutput: .file(output), standardError: .discard)
    func written() -> String { String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self) }
    let deadline = Date().addingTimeInterval(60)
    while !child.hasExited, Date() < deadline,
        !written().split(separator: "\n").contains(where: { $0.hasPrefix(prefix) })
    {
        usleep(1_000)
    }
    usleep(delay)
    child.signal(SIGKILL)
    let code = child.waitUntilExit()
    return (code == 128 + SIGKILL, written().split(separator: "\n"))
}

/// Permission bits of a path.
func mode(of path: String) -> mode_t {
    var info = stat()
    stat(path, &info)
    return info.st_mode & 0o777
}

/// Waits (polling, for `seconds` of polling, see ``poll(within:every:_:)``) until `condition` holds; returns whether
/// it did. The default bound is long (only a failing wait pays it): the full run on 2 cores, with etcd, tmux and demo
/// processes beside it, has taken more than 5 s for a polling watcher to see a change.
func eventually(within seconds: Double = 30, _ condition: () -> Bool) async -> Bool {
    await poll(within: seconds, every: .milliseconds(10)) { condition() }
}

/// The folder holding the checked-in corrupt-store corpus.
let corruptStoreFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/CorruptStores", isDirectory: true)

/// The folder holding files whose problems are in single entries (quarantined or reported, never refused whole).
let tolerableStoreFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/TolerableStores", isDirectory: true)

/// Writes `text` as a store file at `url` (folder 0700, file 0600), creating the folder.
func writeStore(_ text: String, at url: URL) throws {
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    chmod(url.deletingLastPathComponent().path, 0o700)
    try Data(text.utf8).write(to: url)
    chmod(url.path, 0o600)
}

/// A store document with `overrides` as the JSON text of its `overrides` member.
func storeText(_ overrides: String, extra: String = "") -> String {
    #"{"format": "service-configuration-overrides", "version": 1, \#(extra)"overrides": {\#(overrides)}}"#
}
