import Foundation
import SharedTestSupport
import Testing

/// What `config-menu catalog` writes, `config-menu --manifest` reads, at a million keys (issue 27: the tool used to
/// refuse its own 353-MiB output). Skipped under ThreadSanitizer, where the two debug runs would take minutes and
/// check nothing a race could change; the uninstrumented `swift test` runs it.
@Suite("A catalog of a million keys written by catalog is read by --manifest")
struct ManifestRoundTripTests {
    @Test(
        "catalog → --manifest → catalog gives the same bytes at 1,000,000 keys",
        .enabled(if: !runsUnderThreadSanitizer, "minutes under ThreadSanitizer; the plain run checks it"))
    func millionKeys() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-1m-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = folder.appendingPathComponent("written.manifest.json").path
        let again = folder.appendingPathComponent("again.manifest.json").path

        let write = try configMenu(["--synthetic-keys", "1000000", "catalog"], standardOutput: .file(written))
        #expect(write.status == 0, "\(write.error)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: written)[.size] as? Int)
        #expect(size > 100 << 20, "a million keys take over 100 MiB (\(size) bytes)")

        let read = try configMenu(["--manifest", written, "catalog"], standardOutput: .file(again))
        #expect(read.status == 0, "\(read.error)")
        let first = try Data(contentsOf: URL(fileURLWithPath: written))
        let second = try Data(contentsOf: URL(fileURLWithPath: again))
        #expect(
            first == second, "the manifest read back is written with the same bytes (\(first.count), \(second.count))")
        #expect(first.filter { $0 == 0x0A }.count > 1_000_000, "one key per line")
    }

    @Test("a manifest over the size limit is refused naming the file and the limit, not read")
    func overLimit() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-big-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("huge.manifest.json").path
        // A sparse file: 1 GiB and one byte long, holding almost nothing on disk.
        #expect(FileManager.default.createFile(atPath: path, contents: Data("{".utf8)))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: (1 << 30) + 1)
        try handle.close()
        let run = try configMenu(["--manifest", path, "catalog"])
        #expect(run.status != 0)
        #expect(run.error.contains("huge.manifest.json") && run.error.contains("larger than 1 GiB"), "\(run.error)")
    }
}
