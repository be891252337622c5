import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationFiles
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("FileOverrideStore: corrupt files, crashes, full disks")
struct StoreFailureTests {
    typealias Fixture = ConfigurationScopes.Fixture

    static let corpus: [String] =
        (try? FileManager.default.contentsOfDirectory(atPath: corruptStoreFixtures.path))?
        .filter { $0.hasSuffix(".json") }.sorted() ?? []

    /// The problem each corpus file must be refused for (a fragment of the message).
    static let expectedProblems: [String: String] = [
        "truncated.json": "not valid JSON",
        "not-json.json": "not valid JSON: expected a value at line 1, column 1",
        "overrides-not-object.json": "\"overrides\" must be an object, found an array",
        "invalid-utf8.json": "invalid UTF-8 in a string",
        "future-version.json": "newer version of the format (version 2",
        "deep-nesting.json": "nesting is deeper than 64 levels",
        "duplicate-keys.json": "duplicate key \"function.album.like.enabled\" at line 3, column 3",
        "empty.json": "the file is empty",
        "top-level-array.json": "expected a JSON object at the top level, found an array",
        "wrong-format-marker.json": "\"format\" is \"something-else\"",
        "trailing-garbage.json": "unexpected content after the end of the document",
    ]

    /// Puts `bytes` where the store expects its file, with safe permissions.
    func install(_ bytes: [UInt8], in folder: TemporaryFolder) throws -> URL {
        let url = folder.storeURL()
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        chmod(url.deletingLastPathComponent().path, 0o700)
        try Data(bytes).write(to: url)
        chmod(url.path, 0o600)
        return url
    }

    /// Checks the full contract for a refused file: readers report it and leave it exactly where it is, the program
    /// runs on server values; the next writer moves it aside intact and writes a new file (a newer version's file is
    /// never replaced).
    func expectRefused(_ bytes: [UInt8], problem: String) throws {
        let folder = TemporaryFolder()
        let url = try install(bytes, in: folder)
        let listing = try folderListing(url.deletingLastPathComponent())
        let store = FileOverrideStore(url: url)
        let service = LiveConfigurationService(
            serverValues: [Fixture.FlagKey.name: "Y"],
            catalog: try fixtureCatalog(),
            overrideStore: store,
            watchMode: nil
        )
        let error = try #require(store.lastError, "no error for a file that must be refused (\(problem))")
        #expect(error.kind == .corrupt)
        #expect(error.description.hasPrefix(url.path + ": "))
        #expect(error.problem.contains(problem), "problem was: \(error.problem)")
        #expect(error.preservedAt == nil)
        #expect(error.description.contains("no override from this file is applied"))
        #expect(service.flag == true)
        #expect(store.entries.isEmpty)
        // Readers (another instance, repeated reloads) never move, rename or rewrite anything.
        #expect(FileOverrideStore(url: url).reload()?.kind == .corrupt)
        #expect(try [UInt8](Data(contentsOf: url)) == bytes)
        #expect(try folderListing(url.deletingLastPathComponent()) == listing)
        if problem.contains("newer version") {
            let refused = #expect(throws: OverrideStoreError.self) {
                try service.setOverride(false, for: Fixture.FlagKey.self)
            }
            #expect(refused?.problem.contains("nothing was saved") == true)
            #expect(try [UInt8](Data(contentsOf: url)) == bytes)
            #expect(try folderListing(url.deletingLastPathComponent()) == listing)
            return
        }
        // The next change moves the refused file aside intact, then writes a fresh file.
        try service.setOverride(false, for: Fixture.FlagKey.self)
        #expect(service.flag == false)
        let moved = try #require(store.lastError)
        let preserved = try #require(moved.preservedAt)
        #expect(preserved.lastPathComponent.hasPrefix("overrides.json.corrupt-"))
        #expect(moved.description.contains("moved aside to \(preserved.path)"))
        #expect(try [UInt8](Data(contentsOf: preserved)) == bytes)
        let reader = FileOverrideStore(url: url)
        #expect(reader.reload() == nil)
        #expect(reader.entries.keys.sorted() == [Fixture.FlagKey.name])
    }

    /// The names in a folder and each file's size and modification time.
    func folderListing(_ folder: URL) throws -> [String: [Int64]] {
        var result: [String: [Int64]] = [:]
        // The lock file is a writer's, created on its first change; it holds no data. The `programs` folder holds the
        // running program's read-coverage report, not overrides.
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
        where !name.hasSuffix(".lock") && name != "programs" {
            var info = stat()
            lstat(folder.appendingPathComponent(name).path, &info)
            result[name] = [
                Int64(info.st_ino), Int64(info.st_size), Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec),
            ]
        }
        return result
    }

    @Test(
        "every file in the corrupt-store corpus is refused and reported; only a writer moves it aside",
        arguments: corpus)
    func corpusFile(name: String) throws {
        let problem = try #require(Self.expectedProblems[name], "add \(name) to expectedProblems")
        let bytes = try [UInt8](Data(contentsOf: corruptStoreFixtures.appendingPathComponent(name)))
        try expectRefused(bytes, problem: problem)
    }

    @Test("the corpus has every case the store must refuse")
    func corpusComplete() {
        #expect(Set(Self.corpus) == Set(Self.expectedProblems.keys))
    }

    @Test("a 10 MB file is refused whole with its exact size; a 2 MB value is quarantined alone")
    func hugeValue() throws {
        let value = String(repeating: "x", count: 10 << 20)
        let text =
            #"{"format": "service-configuration-overrides", "version": 1, "overrides": {"k": {"value": "\#(value)"}}}"#
        try expectRefused(
            Array(text.utf8), problem: "the file is \(text.utf8.count) bytes (10.0 MiB); the limit is 8 MiB")
        let folder = TemporaryFolder()
        let smaller = String(repeating: "x", count: 2 << 20)
        let text2 =
            #"{"format": "service-configuration-overrides", "version": 1, "overrides": {"k": {"value": "\#(smaller)"}, "ok": {"value": "1"}}}"#
        let url = try install(Array(text2.utf8), in: folder)
        let store = FileOverrideStore(url: url)
        #expect(store.reload() == nil)
        #expect(store.entries.keys.sorted() == ["ok"])
        #expect(store.problems.map(\.reason) == ["the value of k is 2 MiB; the limit is 1 MiB"])
    }

    @Test("a folder where the file should be is never moved, by readers or writers")
    func directoryInPlace() throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: url.appendingPathComponent("inside.txt"))
        chmod(url.deletingLastPathComponent().path, 0o700)
        let store = FileOverrideStore(url: url)
        let error = try #require(store.reload())
        #expect(error.kind == .io)
        #expect(error.problem.hasPrefix("this is a folder, not a file"))
        #expect(error.preservedAt == nil)
        let refused = #expect(throws: OverrideStoreError.self) { try store.set("Y", forKey: "k") }
        #expect(refused?.problem.hasPrefix("this is a folder, not a file") == true)
        let names = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        #expect(names.filter { !$0.hasSuffix(".lock") } == ["overrides.json"])
        #expect(try String(contentsOf: url.appendingPathComponent("inside.txt"), encoding: .utf8) == "keep")
        // A path that ends with a slash names a folder even when nothing is there yet.
        let slashed = FileOverrideStore(url: URL(fileURLWithPath: folder.url.path + "/new/"))
        #expect(slashed.reload()?.problem.hasPrefix("this is a folder, not a file") == true)
        #expect(throws: OverrideStoreError.self) { try slashed.set("Y", forKey: "k") }
        #expect(!FileManager.default.fileExists(atPath: folder.url.path + "/new"))
    }

    @Test(
        "a full disk or read-only folder fails the write clearly and changes nothing",
        arguments: [
            (StoreFileOperation.write, ENOSPC, "cannot save: No space left on device"),
            (StoreFileOperation.sync, EIO, "cannot flush to disk: Input/output error"),
            (StoreFileOperation.rename, EROFS, "cannot replace the file: Read-only file system"),
            (StoreFileOperation.createDirectory, EROFS, "cannot create the folder: Read-only file system"),
        ])
    func injectedFailure(operation: StoreFileOperation, code: Int32, message: String) throws {
        let folder = TemporaryFolder()
        try FileOverrideStore(url: folder.storeURL()).set("Y", forKey: Fixture.FlagKey.name)
        let before = try Data(contentsOf: folder.storeURL())
        let failing = FileOverrideStore(url: folder.storeURL(), faults: { $0 == operation ? code : nil })
        failing.reload()
        // No program report: the folder must hold exactly what the store left.
        let service = LiveConfigurationService(
            catalog: try fixtureCatalog(), overrideStore: failing, watchMode: nil,
            options: .init(publishesProgramReport: false))
        let error = #expect(throws: OverrideStoreError.self) { try service.setOverride(5, for: Fixture.CountKey.self) }
        #expect(error?.kind == .io)
        #expect(error?.description == "\(folder.storeURL().path): \(message) (errno \(code))")
        #expect(failing.lastError == error)
        #expect(failing.entries.keys.sorted() == [Fixture.FlagKey.name])
        #expect(service.count == 3)
        #expect(service.flag == true)
        #expect(try Data(contentsOf: folder.storeURL()) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(
            atPath: folder.storeURL().deletingLastPathComponent().path)
        // The history journal of the first write is there; the failed write added nothing.
        #expect(
            leftovers.sorted() == [
                "overrides.json", "overrides.json.journal", "overrides.json.journaled", "overrides.json.lock",
            ])
    }

    @Test("a real write beyond the file-size limit (another process) fails with the kernel's error")
    func realFullDisk() throws {
        let folder = TemporaryFolder()
        let path = folder.storeURL().path
        try runStoreHelper(["set", path, "small", "1"])
        let before = try Data(contentsOf: folder.storeURL())
        let result = try runStoreHelper(["limited", "200", path, "big", String(repeating: "x", count: 400)])
        #expect(result.status == 1)
        #expect(result.error.contains("\(path): cannot save: File too large"))
        #expect(result.output.contains("entries after failure: 1"))
        #expect(try Data(contentsOf: folder.storeURL()) == before)
    }
}
