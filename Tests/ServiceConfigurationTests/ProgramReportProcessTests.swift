import Foundation
import ServiceConfiguration
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A `store-test-helper publish` process: a running program whose commands come from this test.
final class PublishingProgram {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let lines = Locked<[String]>([])

    init(store: URL, name: String, keys: [String]) throws {
        process.executableURL = URL(fileURLWithPath: storeTestHelperPath())
        process.arguments = ["publish", store.path, name] + keys
        process.standardInput = input
        process.standardOutput = output
        let lines = self.lines
        output.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            lines.withLock { $0.append(contentsOf: text.split(separator: "\n").map(String.init)) }
        }
        try process.run()
    }

    /// Sends one command line (nothing if the program is gone: writing to its closed input would raise SIGPIPE in
    /// the test runner).
    func send(_ command: String) {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.write(contentsOf: Data((command + "\n").utf8))
    }

    /// Waits (polling) for the `count`-th output line starting with `prefix`; returns it.
    func line(startingWith prefix: String, count: Int = 1) async -> String? {
        var found: String?
        _ = await eventually(within: 30) {
            let matching = lines.withLock { $0.filter { $0.hasPrefix(prefix) } }
            found = matching.count >= count ? matching[count - 1] : nil
            return found != nil
        }
        return found
    }

    /// Tells the program to exit (dropping its service, a clean exit) and waits, polling, until it has; returns
    /// whether it did in time.
    ///
    /// It never calls `waitUntilExit()`: Foundation on Linux learns that a child ended through a socket the child
    /// holds, and a sibling started at the same moment may hold it too; `waitUntilExit()` would then block a thread
    /// of the test runner until that sibling ends. A zombie has exited; Foundation reaps it later.
    @discardableResult
    func finish() async -> Bool {
        send("exit")
        let exited = await eventually(within: 30) { hasExited }
        output.fileHandleForReading.readabilityHandler = nil
        try? input.fileHandleForWriting.close()
        return exited
    }

    /// Whether the program has exited: reaped, or a zombie (Foundation reaps it later).
    var hasExited: Bool {
        guard process.isRunning else { return true }
        let stat = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)) ?? ""
        return stat.isEmpty || stat.split(separator: ")").last?.split(separator: " ").first == "Z"
    }

    /// Kills the program with SIGKILL and waits, polling, until it is gone.
    func crash() async -> Bool {
        kill(process.processIdentifier, SIGKILL)
        return await eventually(within: 30) { hasExited }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

#if DebugOverrides
    @Suite("Program reports from real processes: several at once, crashes, clean exits", .serialized)
    struct ProgramReportProcessTests {
        @Test("four programs publishing at once each leave their own correct report")
        func concurrentPrograms() async throws {
            let folder = TemporaryFolder()
            let keys = [["helper.a"], ["helper.b", "helper.c"], ["helper.unlisted"], ["helper.a", "helper.b"]]
            let programs = try keys.enumerated().map { index, keys in
                try PublishingProgram(store: folder.storeURL(), name: "program\(index)", keys: keys)
            }
            for program in programs { #expect(await program.line(startingWith: "published /") != nil) }
            // Every program reads one more key, so all of them rewrite their reports at about the same time.
            for program in programs { program.send("read helper.c") }
            for program in programs { #expect(await program.line(startingWith: "published /", count: 2) != nil) }

            let listing = ProgramReports.read(forStoreAt: folder.storeURL())
            #expect(listing.problems.isEmpty)
            let byName = Dictionary(uniqueKeysWithValues: listing.reports.map { ($0.programName, $0) })
            #expect(byName.count == 4)
            for (index, program) in programs.enumerated() {
                let report = try #require(byName["program\(index)"])
                #expect(report.processIdentifier == program.process.processIdentifier)
                #expect(report.status == .running)
                #expect(report.reads.map(\.name) == Set(keys[index] + ["helper.c"]).sorted())
                #expect(report.unregistered.map(\.name) == (index == 2 ? ["helper.unlisted"] : []))
                #expect(
                    report.unregistered.map(\.scopeTypeName)
                        == (index == 2 ? ["ConfigurationScopes.HelperUnlisted"] : []))
            }
            // At the end of its input each program returns from its main function, dropping its service: a clean
            // exit, so every report is ended, and the reader removed none.
            for program in programs { #expect(await program.finish()) }
            let after = ProgramReports.read(forStoreAt: folder.storeURL())
            #expect(after.reports.count == 4)
            #expect(after.reports.allSatisfy { $0.status == .ended && $0.endedAt != nil })
        }

        @Test("a program killed with SIGKILL leaves a report the reader calls stale, and keeps")
        func crashedProgram() async throws {
            let folder = TemporaryFolder()
            let program = try PublishingProgram(store: folder.storeURL(), name: "crasher", keys: ["helper.a"])
            let published = try #require(await program.line(startingWith: "published /"))
            let path = String(published.dropFirst("published ".count))
            #expect(ProgramReports.read(forStoreAt: folder.storeURL()).reports.first?.status == .running)
            #expect(await program.crash())
            let listing = ProgramReports.read(forStoreAt: folder.storeURL())
            let report = try #require(listing.reports.first)
            #expect(report.status == .stale)
            #expect(report.endedAt == nil)
            #expect(report.reads.map(\.name) == ["helper.a"])
            #expect(FileManager.default.fileExists(atPath: path))
            #expect(ProgramReports.read(forStoreAt: folder.storeURL()).reports.first?.status == .stale)
        }

        @Test("a clean exit marks the report ended: an explicit end, or the service going away")
        func cleanExit() async throws {
            let folder = TemporaryFolder()
            let ending = try PublishingProgram(store: folder.storeURL(), name: "ending", keys: ["helper.a"])
            let releasing = try PublishingProgram(store: folder.storeURL(), name: "releasing", keys: ["helper.b"])
            #expect(await ending.line(startingWith: "published /") != nil)
            #expect(await releasing.line(startingWith: "published /") != nil)
            ending.send("end")
            releasing.send("release")
            #expect(await ending.line(startingWith: "ended") != nil)
            #expect(await releasing.line(startingWith: "released") != nil)
            // Still running, but finished: the tools say "ended", not "running".
            let statuses = Dictionary(
                uniqueKeysWithValues: ProgramReports.read(forStoreAt: folder.storeURL()).reports.map {
                    ($0.programName, $0.status)
                })
            #expect(statuses == ["ending": .ended, "releasing": .ended])
            #expect(await ending.finish())
            #expect(await releasing.finish())
            #expect(ProgramReports.read(forStoreAt: folder.storeURL()).reports.allSatisfy { $0.status == .ended })
        }
    }
#endif
