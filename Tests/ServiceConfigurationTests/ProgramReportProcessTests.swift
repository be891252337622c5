import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A `store-test-helper publish` process: a running program whose commands come from this test.
final class PublishingProgram {
    let child: ChildProcess
    private let errorOutput: URL

    init(store: URL, name: String, keys: [String]) throws {
        errorOutput = FileManager.default.temporaryDirectory.appendingPathComponent("publish-\(UUID().uuidString).err")
        child = try ChildProcess(
            storeTestHelperPath(), ["publish", store.path, name] + keys, standardError: .file(errorOutput.path))
    }

    deinit { try? FileManager.default.removeItem(at: errorOutput) }

    /// What the program wrote to standard error: a trace of each command it took (for failure messages).
    var trace: String { (try? String(contentsOf: errorOutput, encoding: .utf8)) ?? "" }

    /// The program's process identifier.
    var processIdentifier: Int32 { child.processIdentifier }

    /// Sends one command line (nothing if the program is gone).
    func send(_ command: String) { child.send(command) }

    /// Waits (polling) for the `count`-th output line starting with `prefix`; returns it.
    func line(startingWith prefix: String, count: Int = 1) async -> String? {
        var found: String?
        _ = await eventually(within: 30) {
            let matching = child.lines.filter { $0.hasPrefix(prefix) }
            found = matching.count >= count ? matching[count - 1] : nil
            return found != nil
        }
        return found
    }

    /// Tells the program to exit (dropping its service, a clean exit) and waits, polling, until it has; returns
    /// whether it did in time.
    @discardableResult
    func finish() async -> Bool {
        send("exit")
        let exited = await child.exitCode(within: 30) != nil
        child.closeInput()
        return exited
    }

    /// Whether the program has exited.
    var hasExited: Bool { child.hasExited }

    /// Kills the program with SIGKILL and waits, polling, until it is gone.
    func crash() async -> Bool {
        child.signal(SIGKILL)
        return await child.exitCode(within: 30) != nil
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
            for program in programs {
                #expect(await program.line(startingWith: "published /") != nil, "\(program.trace)")
            }
            // Every program reads one more key, so all of them rewrite their reports at about the same time.
            for program in programs { program.send("read helper.c") }
            for program in programs {
                #expect(await program.line(startingWith: "published /", count: 2) != nil, "\(program.trace)")
            }

            let listing = ProgramReports.read(forStoreAt: folder.storeURL())
            #expect(listing.problems.isEmpty)
            let byName = Dictionary(uniqueKeysWithValues: listing.reports.map { ($0.programName, $0) })
            #expect(byName.count == 4)
            for (index, program) in programs.enumerated() {
                let report = try #require(byName["program\(index)"])
                #expect(report.processIdentifier == program.processIdentifier)
                #expect(report.status == .running)
                #expect(report.reads.map(\.name) == Set(keys[index] + ["helper.c"]).sorted())
                #expect(report.unregistered.map(\.name) == (index == 2 ? ["helper.unlisted"] : []))
                #expect(
                    report.unregistered.map(\.scopeTypeName)
                        == (index == 2 ? ["ConfigurationScopes.HelperUnlisted"] : []))
            }
            // At the end of its input each program returns from its main function, dropping its service: a clean
            // exit, so every report is ended, and the reader removed none.
            for program in programs { #expect(await program.finish(), "\(program.trace)") }
            let after = ProgramReports.read(forStoreAt: folder.storeURL())
            #expect(after.reports.count == 4)
            let statuses = after.reports.map {
                "\($0.programName): \($0.status), endedAt \(String(describing: $0.endedAt))"
            }
            #expect(
                after.reports.allSatisfy { $0.status == .ended && $0.endedAt != nil },
                "\(statuses)\n\(programs.map(\.trace).joined())")
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
