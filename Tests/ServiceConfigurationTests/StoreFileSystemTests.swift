import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("FileOverrideStore on a real file system: links, devices, locks, leftovers, hand edits", .serialized)
struct StoreFileSystemTests {
    /// Runs `/bin/sh -c script` to its end.
    func shell(_ script: String) throws {
        let run = try ChildProcess.run("/bin/sh", ["-c", script])
        #expect(run.status == 0, "\(script): \(run.error)")
    }

    func inode(_ path: String) -> UInt64 {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt64(info.st_ino) : 0
    }

    func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    @Test("a store reached through a symbolic link: read, checked, replaced and watched at the target")
    func symbolicLink() async throws {
        let folder = TemporaryFolder()
        let targetFolder = folder.url.appendingPathComponent("real")
        let target = targetFolder.appendingPathComponent("shared.json")
        try writeStore(storeText(#""a": {"value": "1"}"#), at: target)
        let link = folder.storeURL()
        try FileManager.default.createDirectory(
            at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        chmod(link.deletingLastPathComponent().path, 0o700)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "../real/shared.json")
        let store = FileOverrideStore(url: link)
        let service = LiveConfigurationService(overrideStore: store, watchMode: .inotify)
        #expect(store.lastError == nil)
        #expect(service.overrides == ["a": "1"])
        try store.set("2", forKey: "b")
        #expect(isSymbolicLink(link.path))
        let written = FileOverrideStore(url: target)
        #expect(written.reload() == nil)
        #expect(written.entries.keys.sorted() == ["a", "b"])
        #expect(FileManager.default.fileExists(atPath: target.path + ".lock"))
        // The watcher watches the target: a write there (by another process) reaches the service.
        let result = try runStoreHelper(["set", target.path, "c", "3"])
        #expect(result.status == 0)
        #expect(await eventually { service.overrides["c"] == "3" })
        // Checks apply to the target.
        chmod(target.path, 0o666)
        let loose = FileOverrideStore(url: link)
        #expect(loose.reload()?.kind == .insecure)
        #expect(loose.reload()?.problem.contains("is writable by other users (mode 666)") == true)
        #expect(loose.reload()?.problem.hasSuffix("real/shared.json") == true)
        chmod(target.path, 0o600)
        store.stopWatching()
    }

    @Test("export writes through devices, FIFOs and links, and refuses a missing folder")
    func exportDestinations() async throws {
        let folder = TemporaryFolder()
        let store = FileOverrideStore(url: folder.storeURL())
        try store.set("Y", forKey: "k")
        let profile = store.exportedProfile()
        // A device is written through, never replaced.
        try store.export(to: URL(fileURLWithPath: "/dev/null"))
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        let full = #expect(throws: OverrideStoreError.self) { try store.export(to: URL(fileURLWithPath: "/dev/full")) }
        #expect(full?.problem.contains("No space left on device") == true)
        #expect(stat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        // A FIFO is written through.
        let fifo = folder.url.appendingPathComponent("pipe")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let copy = folder.url.appendingPathComponent("received").path
        let reader = try ChildProcess("/bin/cat", [fifo.path], standardInput: .null, standardOutput: .file(copy))
        try store.export(to: fifo)
        _ = reader.waitUntilExit()
        let received = FileManager.default.contents(atPath: copy)
        #expect(received == profile)
        #expect(stat(fifo.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        // A link: the target is replaced in its own folder, the link stays.
        let targetFolder = folder.url.appendingPathComponent("profiles")
        try FileManager.default.createDirectory(at: targetFolder, withIntermediateDirectories: true)
        let target = targetFolder.appendingPathComponent("scenario.json")
        try Data("old".utf8).write(to: target)
        let link = folder.url.appendingPathComponent("link.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
        try store.export(to: link)
        #expect(isSymbolicLink(link.path))
        #expect(try Data(contentsOf: target) == profile)
        // A dangling link is followed too: the target is created beside where it points.
        let dangling = folder.url.appendingPathComponent("dangling.json")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: "profiles/new.json")
        try store.export(to: dangling)
        #expect(isSymbolicLink(dangling.path))
        #expect(try Data(contentsOf: targetFolder.appendingPathComponent("new.json")) == profile)
        // A missing folder is refused, not created.
        let missing = folder.url.appendingPathComponent("nope/out.json")
        let refused = #expect(throws: OverrideStoreError.self) { try store.export(to: missing) }
        #expect(refused?.problem == "the folder \(folder.url.path)/nope does not exist; create it first")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("nope").path))
    }

    @Test("a device or FIFO where the store should be is refused by readers and writers, and left alone")
    func notRegularFile() throws {
        let folder = TemporaryFolder()
        let fifo = folder.url.appendingPathComponent("pipe.json")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        for url in [URL(fileURLWithPath: "/dev/null"), fifo] {
            let store = FileOverrideStore(url: url)
            #expect(store.reload()?.problem == "this is not a regular file; it is refused")
            let error = #expect(throws: OverrideStoreError.self) { try store.set("Y", forKey: "k") }
            #expect(error?.kind == .insecure)
            #expect(!FileManager.default.fileExists(atPath: url.path + ".lock"))
        }
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        #expect(stat(fifo.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    @Test("a lock held by another process: the writer gives up after the bound, naming the lock file")
    func lockTimeout() throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        try FileOverrideStore(url: url).set("Y", forKey: "k")
        let lock = url.path + ".lock"
        let holder = try ChildProcess(
            "/usr/bin/python3",
            [
                "-c",
                "import fcntl, sys, time\nf = open(sys.argv[1], 'a')\nfcntl.flock(f, fcntl.LOCK_EX)\nprint('locked', flush=True)\ntime.sleep(60)",
                lock,
            ], standardInput: .null, standardOutput: .lines)
        defer { holder.stop(signal: SIGKILL) }
        try #require(holder.line(startingWith: "locked", within: 60) != nil, "the lock holder did not start")
        let store = FileOverrideStore(url: url, faults: nil, lockTimeout: .milliseconds(300))
        let started = ContinuousClock.now
        let error = #expect(throws: OverrideStoreError.self) { try store.set("N", forKey: "k") }
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(error?.kind == .io)
        #expect(error?.problem.contains("another process has held the lock file \(lock)") == true)
        // Reading needs no lock.
        #expect(store.reload() == nil)
        #expect(store.entries["k"]?.value == "Y")
    }

    @Test("a lock file another user owns, or others can write, is refused like the store", .enabled(if: geteuid() == 0))
    func foreignLockFile() throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        try FileOverrideStore(url: url).set("Y", forKey: "k")
        let lock = url.path + ".lock"
        let before = try Data(contentsOf: url)
        chown(lock, 65534, 65534)
        let foreign = #expect(throws: OverrideStoreError.self) { try FileOverrideStore(url: url).set("N", forKey: "k") }
        #expect(foreign?.kind == .insecure)
        #expect(foreign?.problem.contains("the lock file \(lock) belongs to another user (uid 65534)") == true)
        chown(lock, 0, 0)
        chmod(lock, 0o666)
        let loose = #expect(throws: OverrideStoreError.self) { try FileOverrideStore(url: url).set("N", forKey: "k") }
        #expect(loose?.problem.contains("is writable by other users (mode 666)") == true)
        #expect(try Data(contentsOf: url) == before)
        unlink(lock)
        try FileOverrideStore(url: url).set("N", forKey: "k")
        #expect(mode(of: lock) == 0o600)
    }

    @Test("reads take no lock: a corrupt store where no lock can be taken is reported as corrupt")
    func readsNeedNoLock() throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        try writeStore("{ not json", at: url)
        let store = FileOverrideStore(url: url, faults: { $0 == .lock ? EROFS : nil })
        let error = try #require(store.reload())
        #expect(error.kind == .corrupt)
        #expect(error.problem.hasPrefix("not valid JSON"))
        #expect(!FileManager.default.fileExists(atPath: url.path + ".lock"))
        let service = LiveConfigurationService(overrideStore: FileOverrideStore(url: url), watchMode: nil)
        #expect(service.overrides.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: url.path + ".lock"))
    }

    @Test("a store its owner made read-only is not replaced; the message says why and how to allow it")
    func readOnlyFile() throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        try FileOverrideStore(url: url).set("Y", forKey: "k")
        chmod(url.path, 0o400)
        let before = try Data(contentsOf: url)
        let store = FileOverrideStore(url: url)
        #expect(store.reload() == nil)
        let error = #expect(throws: OverrideStoreError.self) { try store.set("N", forKey: "k") }
        #expect(
            error?.problem
                == "the file is read-only (mode 400), so it is not changed. To allow changes: chmod 600 \(url.path)")
        #expect(try Data(contentsOf: url) == before)
        #expect(mode(of: url.path) == 0o400)
    }

    @Test("temporary files of killed writers are removed by the next writer; live ones are kept")
    func staleTemporaryFiles() throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        try FileOverrideStore(url: url).set("Y", forKey: "k")
        let state = url.deletingLastPathComponent().path
        let dead = "\(state)/.overrides.json.tmp-999999999-1"
        let old = "\(state)/.overrides.json.tmp-1-2"
        let live = "\(state)/.overrides.json.tmp-1-3"
        let other = "\(state)/.other.json.tmp-999999999-4"
        for path in [dead, old, live, other] {
            _ = FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
        }
        var times = [timespec(tv_sec: time(nil) - 120, tv_nsec: 0), timespec(tv_sec: time(nil) - 120, tv_nsec: 0)]
        utimensat(AT_FDCWD, old, &times, 0)
        try FileOverrideStore(url: url).set("N", forKey: "k")
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(!FileManager.default.fileExists(atPath: old))
        #expect(FileManager.default.fileExists(atPath: live))
        #expect(FileManager.default.fileExists(atPath: other))
    }

    @Test("copies of refused files are bounded: the newest five are kept")
    func asideCopiesBounded() throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        var preserved: [String] = []
        for round in 0..<8 {
            try writeStore("broken \(round)", at: url)
            let store = FileOverrideStore(url: url)
            store.reload()
            try store.set("Y", forKey: "k")
            let error = try #require(store.lastError)
            #expect(error.description.contains("the 5 newest such copies are kept"))
            preserved.append(try #require(error.preservedAt).lastPathComponent)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        let copies = names.filter { $0.hasPrefix("overrides.json.corrupt-") }.sorted()
        #expect(copies == Array(preserved.suffix(5)).sorted())
        let newest = try String(
            contentsOfFile: url.deletingLastPathComponent().path + "/" + preserved.last!, encoding: .utf8)
        #expect(newest == "broken 7")
    }

    @Test("a hand edit written in two steps while a program watches: nothing is moved, nothing lost")
    func twoStepHandEdit() async throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        try FileOverrideStore(url: url).set("Y", forKey: "before")
        let store = FileOverrideStore(url: url)
        let service = LiveConfigurationService(overrideStore: store, watchMode: .inotify)
        #expect(service.overrides == ["before": "Y"])
        let full = storeText(#""one": {"value": "1"}, "two": {"value": "2"}"#)
        let half = String(full.prefix(full.count / 2))
        try shell("printf '%s' '\(half)' > '\(url.path)'")
        #expect(await eventually { store.lastError?.kind == .corrupt })
        #expect(await eventually { service.overrides.isEmpty })
        try shell("printf '%s' '\(full.dropFirst(half.count))' >> '\(url.path)'")
        #expect(await eventually { service.overrides == ["one": "1", "two": "2"] })
        #expect(store.lastError == nil)
        #expect(try String(contentsOf: url, encoding: .utf8) == full)
        let names = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        #expect(
            names.sorted() == [
                "overrides.json", "overrides.json.journal", "overrides.json.journaled", "overrides.json.lock",
            ])
        store.stopWatching()
    }

    @Test(
        "a change made as watching starts, before the watcher runs, is seen: the file or its folder deleted",
        arguments: [OverrideStoreWatchMode.inotify, .polling(interval: .milliseconds(50))], [false, true])
    func changeAsWatchingStarts(mode: OverrideStoreWatchMode, folderToo: Bool) async throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        try FileOverrideStore(url: url).set("1", forKey: "k")
        let store = FileOverrideStore(url: url)
        let service = LiveConfigurationService(overrideStore: store, watchMode: mode)
        #expect(service.overrides == ["k": "1"])
        // At once: the watcher's thread has most likely not run yet (CI failed on this, polling, under load).
        try FileManager.default.removeItem(at: folderToo ? url.deletingLastPathComponent() : url)
        #expect(await eventually(within: 10) { service.overrides.isEmpty })
        store.stopWatching()
    }

    @Test(
        "live reload survives the store's folder being deleted and recreated",
        arguments: [OverrideStoreWatchMode.inotify, .polling(interval: .milliseconds(50))])
    func folderRecreated(mode: OverrideStoreWatchMode) async throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        let state = url.deletingLastPathComponent().path
        try FileOverrideStore(url: url).set("1", forKey: "k")
        let store = FileOverrideStore(url: url)
        let service = LiveConfigurationService(overrideStore: store, watchMode: mode)
        #expect(service.overrides == ["k": "1"])
        for round in 2...3 {
            try shell("rm -rf '\(state)' && mkdir -m 700 '\(state)'")
            #expect(await eventually { service.overrides.isEmpty })
            #expect(try runStoreHelper(["set", url.path, "k", String(round)]).status == 0)
            #expect(await eventually { service.overrides == ["k": String(round)] }, "round \(round)")
            #expect(store.liveReloadProblem == nil)
        }
        store.stopWatching()
    }
}
