import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore

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
    let process = Process()
    process.executableURL = URL(fileURLWithPath: storeTestHelperPath())
    process.arguments = arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
        process.terminationStatus, String(decoding: outputData, as: UTF8.self),
        String(decoding: errorData, as: UTF8.self)
    )
}

/// Permission bits of a path.
func mode(of path: String) -> mode_t {
    var info = stat()
    stat(path, &info)
    return info.st_mode & 0o777
}

/// Waits (polling, up to `seconds`) until `condition` holds; returns whether it did.
func eventually(within seconds: Double = 5, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
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
