import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

#if DebugOverrides
    @Suite("Program reports: what a running program publishes beside its store")
    struct ProgramReportTests {
        typealias Fixture = ConfigurationScopes.Fixture
        typealias LimitKey = ConfigurationScopes.Unlisted.LimitKey

        func makeService(
            _ folder: TemporaryFolder, name: String = "report-test", warnings: WarningLog? = nil,
            configure: (inout LiveConfigurationService.Options) -> Void = { _ in }
        ) throws -> LiveConfigurationService {
            var options = LiveConfigurationService.Options(onWarning: warnings?.hook, programName: name)
            configure(&options)
            return LiveConfigurationService(
                serverValues: [Fixture.CountKey.name: "5"], catalog: try fixtureCatalog(),
                overrideStore: FileOverrideStore(url: folder.storeURL()), watchMode: nil, options: options)
        }

        /// The only report in the store's programs folder, or `nil` (for polling).
        func reportIfAny(_ folder: TemporaryFolder) -> ProgramReport? {
            let reports = ProgramReports.read(forStoreAt: folder.storeURL()).reports
            return reports.count == 1 ? reports[0] : nil
        }

        /// The one report in the store's programs folder, read as the tools read it.
        func onlyReport(_ folder: TemporaryFolder) throws -> ProgramReport {
            let listing = ProgramReports.read(forStoreAt: folder.storeURL())
            #expect(listing.problems.isEmpty)
            #expect(listing.reports.count == 1)
            return try #require(listing.reports.first)
        }

        @Test("the published file holds the program, its reads, unregistered keys and rejected overrides")
        func content() throws {
            let folder = TemporaryFolder()
            try FileOverrideStore(url: folder.storeURL()).set("yes", forKey: Fixture.FlagKey.name)
            let service = try makeService(folder, name: "Demo App\u{1B}]0;x")
            let before = Date()
            #expect(service.count == 5)
            #expect(service.flag == false)
            _ = service.unlistedLimit
            service.publishProgramReportNow()
            let url = try #require(service.programReportURL)
            #expect(url.deletingLastPathComponent() == ProgramReports.folder(forStoreAt: folder.storeURL()))
            #expect(url.lastPathComponent.hasPrefix("Demo_App__0_x-\(getpid())-"))
            #expect(url.pathExtension == "json")
            #expect(mode(of: url.path) == 0o600)
            #expect(mode(of: url.deletingLastPathComponent().path) == 0o700)

            let report = try onlyReport(folder)
            #expect(report.fileURL == url)
            #expect(report.programName == "Demo App\u{1B}]0;x")
            #expect(report.label == "Demo App\\u{001B}]0;x (pid \(getpid()), running)")
            #expect(report.processIdentifier == getpid())
            #expect(report.status == .running)
            #expect(report.endedAt == nil)
            #expect(report.storePath == folder.storeURL().resolvingSymlinksInPath().path)
            #expect(report.startedAt <= before)
            #expect(report.writtenAt >= before.addingTimeInterval(-0.001))  // the file keeps milliseconds
            #expect(report.recordsReads)
            #expect(report.reads.map(\.name) == [Fixture.CountKey.name, Fixture.FlagKey.name, LimitKey.name].sorted())
            let countRead = try #require(report.read(named: Fixture.CountKey.name))
            let inMemory = try #require(service.readCoverage().read(named: Fixture.CountKey.name))
            // The file keeps milliseconds.
            #expect(abs(countRead.firstRead.timeIntervalSince(inMemory.firstRead)) < 0.001)
            #expect(report.unregistered.map(\.name) == [LimitKey.name])
            #expect(report.unregistered.first?.scopeTypeName == "ConfigurationScopes.Unlisted")
            #expect(
                report.rejectedOverrides == [
                    ConfigurationRejectedOverride(
                        name: Fixture.FlagKey.name, value: "yes", reason: "expected Y or N, got \"yes\"")
                ])

            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text.contains("\"format\": \"service-configuration-program-report\""))
            #expect(text.contains("\"version\": 1"))
            #expect(text.contains("\"pid\": \(getpid())"))
        }

        @Test("a service publishes only once it has read a key, and only with a store")
        func whenPublished() throws {
            let folder = TemporaryFolder()
            let service = try makeService(folder)
            _ = service.resolution(forKeyNamed: Fixture.CountKey.name)
            service.publishProgramReportNow()
            #expect(service.programReportWriteCount == 0)
            #expect(!FileManager.default.fileExists(atPath: ProgramReports.folder(forStoreAt: folder.storeURL()).path))

            let noStore = LiveConfigurationService(catalog: try fixtureCatalog(), options: .init(onWarning: nil))
            _ = noStore.count
            #expect(noStore.programReportURL == nil)
            #expect(noStore.readCoverage().reads.map(\.name) == [Fixture.CountKey.name])

            let optedOut = try makeService(folder) { $0.publishesProgramReport = false }
            _ = optedOut.count
            #expect(optedOut.programReportURL == nil)
            #expect(!FileManager.default.fileExists(atPath: ProgramReports.folder(forStoreAt: folder.storeURL()).path))
        }

        @Test("the first read publishes without waiting; a clean end marks the report ended, and deinit does too")
        func lifecycle() async throws {
            let folder = TemporaryFolder()
            var service: LiveConfigurationService? = try makeService(folder)
            _ = service?.count
            #expect(await eventually(within: 20) { reportIfAny(folder)?.reads.count == 1 })
            service?.endProgramReport()
            var report = try onlyReport(folder)
            #expect(report.status == .ended)
            #expect(report.endedAt != nil)
            // Nothing is written after the end.
            let writes = service?.programReportWriteCount
            _ = service?.flag
            service?.publishProgramReportNow()
            #expect(service?.programReportWriteCount == writes)
            service = nil

            let second = TemporaryFolder()
            var other: LiveConfigurationService? = try makeService(second)
            _ = other?.count
            other?.publishProgramReportNow()
            #expect(try onlyReport(second).status == .running)
            other = nil
            report = try onlyReport(second)
            #expect(report.status == .ended)
            #expect(report.reads.map(\.name) == [Fixture.CountKey.name])
        }

        @Test("a burst of reads and changes writes the file at most once per interval")
        func rateLimit() async throws {
            let folder = TemporaryFolder()
            let interval = Duration.milliseconds(250)
            let service = try makeService(folder) { $0.programReportInterval = interval }
            let clock = ContinuousClock()
            let start = clock.now
            var round = 0
            // Every round changes a value and reads it: each read is new coverage and asks for a write.
            while clock.now - start < .seconds(1) {
                service.updateServerValues([Fixture.CountKey.name: String(round)])
                #expect(service.count == round)
                round += 1
            }
            let elapsed = clock.now - start
            let writes = service.programReportWriteCount
            // One write at the first read, then at most one per interval (one more may be in flight). (No lower
            // bound here: on a loaded machine the writer's queue may not run during the burst.)
            let allowed = Int(elapsed / interval) + 2
            #expect(round > 100)
            #expect(writes <= allowed, "\(writes) writes in \(elapsed) for \(round) changes")
            // Coalesced, not dropped: the read of the last change reaches the file without another read.
            let lastRead = try #require(
                service.readCoverage().read(named: Fixture.CountKey.name)?.currentValueFirstRead)
            #expect(
                await eventually(within: 30) {
                    guard let fileRead = reportIfAny(folder)?.read(named: Fixture.CountKey.name)?.currentValueFirstRead
                    else { return false }
                    return abs(fileRead.timeIntervalSince(lastRead)) < 0.001  // the file keeps milliseconds
                })
            #expect(service.count == round - 1)
        }

        @Test("files the reader cannot use are reported and left alone; temporary files are ignored")
        func badFiles() throws {
            let folder = TemporaryFolder()
            let programs = ProgramReports.folder(forStoreAt: folder.storeURL())
            let service = try makeService(folder)
            _ = service.count
            service.publishProgramReportNow()
            let valid = try Data(contentsOf: try #require(service.programReportURL))
            func write(_ name: String, _ text: String) throws {
                try Data(text.utf8).write(to: programs.appendingPathComponent(name))
            }
            try write("garbage.json", "{not json")
            try write("other-format.json", #"{"format":"service-configuration-overrides","version":1}"#)
            try write("future.json", #"{"format":"service-configuration-program-report","version":2}"#)
            try write("no-pid.json", #"{"format":"service-configuration-program-report","version":1,"program":"x"}"#)
            try write(
                "bad-time.json",
                String(decoding: valid, as: UTF8.self).replacingOccurrences(
                    of: "\"startedAt\": \"", with: "\"startedAt\": \"yesterday"))
            try write(".pending.json.tmp-1-2", "{")
            try write("notes.txt", "not a report")
            try FileManager.default.createSymbolicLink(
                atPath: programs.appendingPathComponent("link.json").path,
                withDestinationPath: try #require(service.programReportURL).path)
            mkfifo(programs.appendingPathComponent("fifo.json").path, 0o600)
            try FileManager.default.createDirectory(
                at: programs.appendingPathComponent("folder.json"), withIntermediateDirectories: false)
            let huge = try FileHandle(forWritingTo: programs.appendingPathComponent("garbage.json"))
            try huge.truncate(atOffset: 40 << 20)
            try huge.close()
            try write("invalid-utf8.json", "")
            try Data([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D]).write(
                to: programs.appendingPathComponent("invalid-utf8.json"))
            // Unknown fields are ignored, so a newer writer's additions do not break this reader.
            var extended = try #require(try JSONSerialization.jsonObject(with: valid) as? [String: Any])
            extended["futureField"] = ["anything": [1, 2]]
            extended["pid"] = 1
            extended["program"] = "future"
            try JSONSerialization.data(withJSONObject: extended).write(to: programs.appendingPathComponent("f.json"))
            let before = try FileManager.default.contentsOfDirectory(atPath: programs.path).sorted()

            let listing = ProgramReports.read(folder: programs)
            #expect(listing.reports.map(\.programName).sorted() == ["future", "report-test"])
            let problems = Dictionary(
                uniqueKeysWithValues: listing.problems.map { ($0.url.lastPathComponent, $0.problem) })
            #expect(problems["garbage.json"] == "40 MiB; the limit is 32 MiB")
            #expect(problems["fifo.json"] == "not a regular file")
            #expect(problems["folder.json"] == "not a regular file")
            #expect(problems["invalid-utf8.json"] == "not valid JSON: invalid UTF-8 in a string at line 1, column 3")
            #expect(
                problems["other-format.json"]
                    == "\"format\" is \"service-configuration-overrides\", not \"service-configuration-program-report\""
            )
            #expect(problems["future.json"] == "version 2 of the format; this build reads version 1")
            #expect(problems["no-pid.json"] == "missing \"pid\"")
            #expect(problems["bad-time.json"]?.hasPrefix("\"startedAt\" is not a UTC timestamp") == true)
            #expect(problems["link.json"] == "a symbolic link; reports are regular files")
            #expect(problems.count == 9)
            #expect(try FileManager.default.contentsOfDirectory(atPath: programs.path).sorted() == before)
        }

        @Test("a report whose process is gone, or whose pid now belongs to another process, is stale")
        func staleness() throws {
            let folder = TemporaryFolder()
            let service = try makeService(folder)
            _ = service.count
            service.publishProgramReportNow()
            let url = try #require(service.programReportURL)
            let programs = url.deletingLastPathComponent()
            var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])

            let exited = try ChildProcess("/bin/true", [], standardInput: .null, standardOutput: .discard)
            _ = exited.waitUntilExit()
            object["pid"] = exited.processIdentifier
            try JSONSerialization.data(withJSONObject: object).write(to: programs.appendingPathComponent("gone.json"))
            #if os(Linux)
                object["pid"] = getpid()
                object["processStart"] = "another-boot/1"
                try JSONSerialization.data(withJSONObject: object).write(
                    to: programs.appendingPathComponent("reused.json"))
            #endif
            let statuses = Dictionary(
                uniqueKeysWithValues: ProgramReports.read(folder: programs).reports.map {
                    ($0.fileURL!.lastPathComponent, $0.status)
                })
            #expect(statuses[url.lastPathComponent] == .running)
            #expect(statuses["gone.json"] == .stale)
            #if os(Linux)
                #expect(statuses["reused.json"] == .stale)
            #endif
            #expect(FileManager.default.fileExists(atPath: programs.appendingPathComponent("gone.json").path))
        }

        @Test("a new program keeps the newest finished reports of its name and touches nothing else")
        func pruning() throws {
            let folder = TemporaryFolder()
            let programs = ProgramReports.folder(forStoreAt: folder.storeURL())
            // Finished reports of two programs, written by services that ended one after another.
            var ended: [String] = []
            for index in 0..<8 {
                // Reports keep times to the millisecond: each service ends in a later one, so "newest" is defined.
                let next = Date().addingTimeInterval(0.002)
                while Date() < next {}
                let service = try makeService(folder, name: index < 7 ? "pruned" : "other") {
                    $0.keptFinishedReports = 100
                }
                _ = service.count
                service.endProgramReport()
                if index < 7 { ended.append(try #require(service.programReportURL).lastPathComponent) }
            }
            // A writer that died between creating its temporary file and renaming it, and one still writing.
            let exited = try ChildProcess("/bin/true", [], standardInput: .null, standardOutput: .discard)
            _ = exited.waitUntilExit()
            let deadTemporary = ".pruned-1-1.json.tmp-\(exited.processIdentifier)-77"
            let liveTemporary = ".pruned-1-1.json.tmp-\(getpid())-78"
            for name in [deadTemporary, liveTemporary] {
                try Data("{".utf8).write(to: programs.appendingPathComponent(name))
            }
            let running = try makeService(folder, name: "pruned") { $0.keptFinishedReports = 100 }
            _ = running.count
            running.publishProgramReportNow()

            let newest = try makeService(folder, name: "pruned") { $0.keptFinishedReports = 3 }
            _ = newest.count
            newest.publishProgramReportNow()
            // The running services' own periodic writes may have a temporary file open at this moment; only the two
            // planted temporaries are the test's.
            let names = Set(
                try FileManager.default.contentsOfDirectory(atPath: programs.path).filter {
                    !$0.hasPrefix(".") && !$0.hasSuffix(".json.reads") || $0 == deadTemporary || $0 == liveTemporary
                })
            #expect(names.isSuperset(of: ended.suffix(3)))
            #expect(names.isDisjoint(with: ended.prefix(4)))
            #expect(names.contains(try #require(running.programReportURL).lastPathComponent))
            #expect(names.contains(try #require(newest.programReportURL).lastPathComponent))
            #expect(ProgramReports.read(folder: programs).reports.filter { $0.programName == "other" }.count == 1)
            #expect(!names.contains(deadTemporary))
            #expect(names.contains(liveTemporary))
            #expect(names.count == 3 + 1 + 1 + 1 + 1)
        }

        @Test("reports of another store in the same folder are not this store's")
        func storeFilter() throws {
            let folder = TemporaryFolder()
            let service = try makeService(folder)
            _ = service.count
            service.publishProgramReportNow()
            let otherStore = folder.storeURL("other.json")
            let otherService = LiveConfigurationService(
                catalog: try fixtureCatalog(), overrideStore: FileOverrideStore(url: otherStore), watchMode: nil,
                options: .init(onWarning: nil, programName: "other"))
            _ = otherService.flag
            otherService.publishProgramReportNow()
            #expect(ProgramReports.read(forStoreAt: folder.storeURL()).reports.map(\.programName) == ["report-test"])
            #expect(ProgramReports.read(forStoreAt: otherStore).reports.map(\.programName) == ["other"])
            #expect(ProgramReports.read(folder: ProgramReports.folder(forStoreAt: otherStore)).reports.count == 2)
        }

        @Test("a programs folder others can write to is refused with one warning, not one per write")
        func insecureFolder() throws {
            let folder = TemporaryFolder()
            let programs = ProgramReports.folder(forStoreAt: folder.storeURL())
            try FileManager.default.createDirectory(at: programs, withIntermediateDirectories: true)
            chmod(programs.path, 0o777)
            let warnings = WarningLog()
            let service = try makeService(folder, warnings: warnings)
            _ = service.count
            service.publishProgramReportNow()
            service.publishProgramReportNow()
            let expected = ConfigurationWarning.programReportNotWritten(
                path: try #require(service.programReportURL).path,
                reason: "the folder \(programs.path) is writable by other users (mode 777); chmod 700 it")
            #expect(warnings.all == [expected])
            #expect(expected.description.contains("cannot write the program report"))
            #expect(service.programReportWriteCount == 0)
            #expect(try FileManager.default.contentsOfDirectory(atPath: programs.path).isEmpty)
            // Fixed, the next write succeeds.
            chmod(programs.path, 0o700)
            service.publishProgramReportNow()
            #expect(service.programReportWriteCount >= 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: programs.path).count == 1)
            #expect(warnings.all.count == 1)
        }
    }
#endif
