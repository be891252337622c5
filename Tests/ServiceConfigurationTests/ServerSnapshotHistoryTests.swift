import Foundation
import ServiceConfiguration
import Testing

@testable import ServiceConfigurationSync

#if canImport(Glibc)
    import Glibc
#endif

/// The bounded history of applied server values beside the snapshot (`server-snapshot.json.history`).
@Suite("Server snapshot history: bounded, deduplicated, refused when hostile")
struct ServerSnapshotHistoryTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("server-history-\(UUID().uuidString)")
    var history: ServerSnapshotHistory {
        ServerSnapshotHistory(snapshotURL: folder.appendingPathComponent("server-snapshot.json"))
    }

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(folder.path, 0o700)
    }

    func entries() throws -> [ServerSnapshotHistory.Entry] { try history.load().get() }

    @Test("the same values again add no entry; the newest 50 are kept, oldest first")
    func boundedByCount() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(history.record(["a": "1"], source: "s", at: start) == nil)
        #expect(history.record(["a": "1"], source: "s", at: start.addingTimeInterval(1)) == nil)
        #expect(try entries().count == 1, "unchanged values are not recorded again")
        #expect(history.record(["a": "1"], source: "other", at: start.addingTimeInterval(2)) == nil)
        #expect(try entries().count == 2, "the same values from another source are")
        for index in 0..<60 {
            #expect(
                history.record(["a": "v\(index)"], source: "s", at: start.addingTimeInterval(Double(10 + index))) == nil
            )
        }
        let kept = try entries()
        #expect(kept.count == ServerSnapshotHistory.maximumCount)
        #expect(kept.first?.values == ["a": "v10"] && kept.last?.values == ["a": "v59"])
        #expect(kept.map(\.at) == kept.map(\.at).sorted())
    }

    @Test("the size bound drops the oldest; a snapshot too large alone is kept without its values")
    func boundedBySize() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let big = String(repeating: "x", count: ServerSnapshotHistory.maximumFileSize / 3)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<4 {
            #expect(
                history.record(["k": big + "\(index)"], source: "s", at: start.addingTimeInterval(Double(index))) == nil
            )
        }
        let kept = try entries()
        #expect(kept.count == 2, "two thirds of the bound each: the newest two fit")
        #expect(kept.last?.values?["k"] == big + "3")
        let huge = String(repeating: "y", count: ServerSnapshotHistory.maximumFileSize)
        #expect(history.record(["k": huge, "j": "1"], source: "s", at: start.addingTimeInterval(10)) == nil)
        let last = try #require(try entries().last)
        #expect(last.values == nil && last.keyCount == 2, "known to be unknown, never the older values")
    }

    @Test("a history others can write is refused, naming it; one that is not the format is moved aside on write")
    func hostileAndCorrupt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = ServerSnapshotHistory.url(forSnapshotAt: folder.appendingPathComponent("server-snapshot.json"))
        #expect(history.record(["a": "1"], source: "s", at: Date()) == nil)
        chmod(url.path, 0o666)
        guard case .failure(let problem) = history.load() else {
            Issue.record("a history others can write was read")
            return
        }
        #expect(problem.description.hasPrefix("\(url.path): "), "\(problem)")
        #expect(history.record(["a": "2"], source: "s", at: Date()) != nil, "and not written either")
        chmod(url.path, 0o600)
        try Data(#"{"format": "service-configuration-server-history", "version": 9, "snapshots": []}"#.utf8)
            .write(to: url)
        guard case .failure(let newer) = history.load() else {
            Issue.record("a newer version was read")
            return
        }
        #expect(newer.description.contains("version 9 is newer than this build reads (1)"), "\(newer)")
        #expect(history.record(["a": "3"], source: "s", at: Date()) != nil, "says it moved the file aside")
        #expect(try entries().map(\.values) == [["a": "3"]])
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".corrupt-") }
        #expect(aside.count == 1)
    }
}
