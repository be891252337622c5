import Foundation
import ServiceConfiguration
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
        "wrong-types.json": "\"value\" must be a string, found a boolean",
        "overrides-not-object.json": "\"overrides\" must be an object, found an array",
        "invalid-utf8.json": "invalid UTF-8 in a string",
        "future-version.json": "newer version of the format (version 2",
        "deep-nesting.json": "nesting is deeper than 64 levels",
        "duplicate-keys.json": "duplicate key \"function.album.like.enabled\" at line 3, column 3",
        "empty.json": "the file is empty",
        "top-level-array.json": "expected a JSON object at the top level, found an array",
        "wrong-format-marker.json": "\"format\" is \"something-else\"",
        "unknown-field.json": "unknown field \"vaule\"",
        "trailing-garbage.json": "unexpected content after the end of the document",
        "bad-timestamp.json": "\"setAt\" is not a UTC timestamp",
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

    /// Checks the full contract for a refused file: clear error, moved aside intact, program on server values.
    func expectRefused(_ bytes: [UInt8], problem: String) throws {
        let folder = TemporaryFolder()
        let url = try install(bytes, in: folder)
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
        let preserved = try #require(error.preservedAt)
        #expect(preserved.lastPathComponent.hasPrefix("overrides.json.corrupt-"))
        #expect(error.description.contains("moved aside to \(preserved.path)"))
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(try [UInt8](Data(contentsOf: preserved)) == bytes)
        #expect(service.flag == true)
        #expect(store.entries.isEmpty)
        // The store keeps working: the next change writes a fresh file, the refused one stays aside.
        try service.setOverride(false, for: Fixture.FlagKey.self)
        #expect(service.flag == false)
        #expect(try [UInt8](Data(contentsOf: preserved)) == bytes)
    }

    @Test("every file in the corrupt-store corpus is refused, moved aside, and reported", arguments: corpus)
    func corpusFile(name: String) throws {
        let problem = try #require(Self.expectedProblems[name], "add \(name) to expectedProblems")
        let bytes = try [UInt8](Data(contentsOf: corruptStoreFixtures.appendingPathComponent(name)))
        try expectRefused(bytes, problem: problem)
    }

    @Test("the corpus has every case the store must refuse")
    func corpusComplete() {
        #expect(Set(Self.corpus) == Set(Self.expectedProblems.keys))
    }

    @Test("a 10 MB value is refused")
    func hugeValue() throws {
        let value = String(repeating: "x", count: 10 << 20)
        let text =
            #"{"format": "service-configuration-overrides", "version": 1, "overrides": {"k": {"value": "\#(value)"}}}"#
        try expectRefused(Array(text.utf8), problem: "the file is 10 MiB; the limit is 8 MiB")
        let smaller = String(repeating: "x", count: 2 << 20)
        let text2 =
            #"{"format": "service-configuration-overrides", "version": 1, "overrides": {"k": {"value": "\#(smaller)"}}}"#
        try expectRefused(Array(text2.utf8), problem: "the value is 2048 KiB; the limit is 1024 KiB")
    }

    @Test("a folder where the file should be is moved aside")
    func directoryInPlace() throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        chmod(url.deletingLastPathComponent().path, 0o700)
        let store = FileOverrideStore(url: url)
        let error = try #require(store.reload())
        #expect(error.kind == .corrupt)
        #expect(error.problem == "this is a folder, not a file")
        var isDirectory: ObjCBool = false
        #expect(
            FileManager.default.fileExists(atPath: error.preservedAt!.path, isDirectory: &isDirectory)
                && isDirectory.boolValue)
        try store.set("Y", forKey: "k")
        #expect(FileOverrideStore(url: url).entries.isEmpty)
        #expect(FileOverrideStore(url: url).reload() == nil)
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
        #expect(leftovers.sorted() == ["overrides.json", "overrides.json.lock"])
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
