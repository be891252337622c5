import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

#if DebugOverrides
    /// The reads log beside a program report: a program appends what changed instead of rewriting its whole report,
    /// and readers follow it, reading only what was added.
    @Suite("Program reports: the reads log, appended by programs, followed by readers")
    struct ProgramReportLogTests {
        typealias Fixture = ConfigurationScopes.Fixture
        static let start = Date(timeIntervalSince1970: 1_764_425_100)

        /// A report of `reads` keys named `key.N`, with `generation`, written whole into `folder`'s programs folder.
        func writeReport(_ folder: TemporaryFolder, reads: Int, generation: Int = 1) throws -> (URL, ProgramReport) {
            let programs = ProgramReports.folder(forStoreAt: folder.storeURL())
            try FileManager.default.createDirectory(at: programs, withIntermediateDirectories: true)
            var report = ProgramReport(
                programName: "app", processIdentifier: 4242, processStart: nil,
                storePath: ProgramReports.resolvedStorePath(folder.storeURL()).path, startedAt: Self.start,
                writtenAt: Self.start, endedAt: Self.start + 600, recordsReads: true,
                reads: (0..<reads).map {
                    .init(name: "key.\($0)", firstRead: Self.start + 1, currentValueFirstRead: Self.start + 1)
                }, unregistered: [], rejectedOverrides: [])
            report.generation = generation
            let url = programs.appendingPathComponent("app-4242-1.json")
            try report.encoded().write(to: url)
            return (url, report)
        }

        /// A service on a store in `folder` publishing its report at most every `interval`. The log's age limit is
        /// an hour by default, far from any test's own time: under a loaded CI a sleep can last past the default
        /// minute, after which a scheduled write is whole and removes the log.
        func makeService(
            _ folder: TemporaryFolder, interval: Duration, longestLogAge: Duration = .seconds(3_600)
        ) throws -> LiveConfigurationService {
            var options = LiveConfigurationService.Options(programName: "app")
            options.programReportInterval = interval
            options.programReportLongestLogAge = longestLogAge
            return LiveConfigurationService(
                serverValues: [Fixture.CountKey.name: "5"], catalog: try fixtureCatalog(),
                overrideStore: FileOverrideStore(url: folder.storeURL()), watchMode: nil, options: options)
        }

        func append(_ bytes: [UInt8], to url: URL) throws {
            if !FileManager.default.fileExists(atPath: url.path) {
                _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            }
            let handle = try FileHandle(forWritingTo: url)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(bytes))
            try handle.close()
        }

        @Test("a running program appends new reads to the log; readers see them; the report alone is a valid report")
        func publisherAppends() async throws {
            let folder = TemporaryFolder()
            let service = try makeService(folder, interval: .milliseconds(50))
            _ = service.count
            service.publishProgramReportNow()
            let url = try #require(service.programReportURL)
            let whole = try Data(contentsOf: url)
            _ = service.flag
            let log = ProgramReportLog.url(of: url)
            #expect(
                await eventually(within: 30) {
                    ProgramReports.read(forStoreAt: folder.storeURL()).reports.first?.read(
                        named: Fixture.FlagKey.name) != nil
                }, "readers see the read the log holds")
            #expect(FileManager.default.fileExists(atPath: log.path), "the new read went to the log")
            #expect(try Data(contentsOf: url) == whole, "the report itself was not rewritten for it")
            // A reader of the report alone (an older build) reads a valid report, as of its last whole write.
            let old = try #require(try JSONSerialization.jsonObject(with: whole) as? [String: Any])
            #expect(old["format"] as? String == "service-configuration-program-report")
            #expect((old["reads"] as? [String: Any])?.keys.sorted() == [Fixture.CountKey.name])
            // Ending writes the whole report, with everything, and removes the log.
            service.endProgramReport()
            #expect(!FileManager.default.fileExists(atPath: log.path))
            let ended = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            #expect(
                (ended["reads"] as? [String: Any]).map { Set($0.keys) } == [
                    Fixture.CountKey.name, Fixture.FlagKey.name,
                ])
        }

        @Test("a scheduled write that finds every read already published writes nothing: no empty log is left")
        func nothingChangedWritesNothing() async throws {
            let folder = TemporaryFolder()
            let service = try makeService(folder, interval: .milliseconds(20))
            _ = service.count
            #expect(await eventually(within: 30) { service.programReportWriteCount >= 1 })
            service.publishProgramReportNow()
            let url = try #require(service.programReportURL)
            let writes = service.programReportWriteCount
            // A layer change schedules a write; the only read (count) saw no change, so there is nothing to log.
            try service.setOverride(true, for: Fixture.FlagKey.self)
            try await Task.sleep(for: .milliseconds(400))
            #expect(!FileManager.default.fileExists(atPath: ProgramReportLog.url(of: url).path))
            #expect(service.programReportWriteCount == writes)
            // A read that did change still goes to the log.
            _ = service.flag
            #expect(
                await eventually(within: 30) {
                    FileManager.default.fileExists(atPath: ProgramReportLog.url(of: url).path)
                })
        }

        @Test("a log older than the longest age is not continued: the next scheduled write is whole, the log gone")
        func oldLogIsWrittenWhole() async throws {
            let folder = TemporaryFolder()
            let service = try makeService(folder, interval: .milliseconds(20), longestLogAge: .zero)
            _ = service.count
            service.publishProgramReportNow()
            let url = try #require(service.programReportURL)
            let writes = service.programReportWriteCount
            _ = service.flag
            #expect(await eventually(within: 30) { service.programReportWriteCount > writes })
            #expect(!FileManager.default.fileExists(atPath: ProgramReportLog.url(of: url).path))
            let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            #expect(
                (report["reads"] as? [String: Any]).map { Set($0.keys) } == [
                    Fixture.CountKey.name, Fixture.FlagKey.name,
                ], "the report itself holds the new read")
            service.endProgramReport()
        }

        @Test("a reader applies each complete line once, waits for a line being written, and starts over with the log")
        func readerFollowsTheLog() throws {
            let folder = TemporaryFolder()
            let (url, _) = try writeReport(folder, reads: 1_000)
            let log = ProgramReportLog.url(of: url)
            let reader = ProgramReportReader()
            #expect(reader.read(forStoreAt: folder.storeURL()).reports.first?.reads.count == 1_000)

            let changed = ConfigurationReadCoverage.Read(
                name: "key.7", firstRead: Self.start + 1, currentValueFirstRead: nil)
            let added = ConfigurationReadCoverage.Read(
                name: "key.0a", firstRead: Self.start + 9, currentValueFirstRead: Self.start + 9)
            let line = ProgramReportLog.line(writtenAt: Self.start + 10, reads: [changed, added])
            try append(ProgramReportLog.header(generation: 1) + line.dropLast(5), to: log)
            var report = try #require(reader.read(forStoreAt: folder.storeURL()).reports.first)
            #expect(report.reads.count == 1_000, "a line still being written is not read")
            try append(Array(line.suffix(5)), to: log)
            report = try #require(reader.read(forStoreAt: folder.storeURL()).reports.first)
            #expect(report.reads.count == 1_001)
            #expect(report.read(named: "key.7")?.currentValueFirstRead == nil, "the value changed since it was read")
            #expect(report.read(named: "key.0a") == added)
            #expect(report.reads.map(\.name) == report.reads.map(\.name).sorted(), "still sorted by name")
            #expect(report.writtenAt == Self.start + 10)
            // Read again, nothing new: the same.
            #expect(reader.read(forStoreAt: folder.storeURL()).reports.first == report)
            // A fresh reader (config-menu coverage) reads the report and the whole log alike.
            #expect(ProgramReports.read(forStoreAt: folder.storeURL()).reports.first?.reads == report.reads)

            // The log started over (emptied and rewritten): applied from its start, over the report alone.
            let again =
                ProgramReportLog.header(generation: 1)
                + ProgramReportLog.line(writtenAt: Self.start + 20, reads: [added])
            try Data(again).write(to: log)
            report = try #require(reader.read(forStoreAt: folder.storeURL()).reports.first)
            #expect(report.read(named: "key.7")?.currentValueFirstRead == Self.start + 1, "the old line is gone")
            #expect(report.read(named: "key.0a") == added)
            // The log removed: the report alone.
            try FileManager.default.removeItem(at: log)
            #expect(reader.read(forStoreAt: folder.storeURL()).reports.first?.reads.count == 1_000)
        }

        @Test("a log of another generation (the report was written whole since) is not applied; nor is a broken line")
        func staleLog() throws {
            let folder = TemporaryFolder()
            let (url, _) = try writeReport(folder, reads: 10, generation: 3)
            let log = ProgramReportLog.url(of: url)
            let stale = ConfigurationReadCoverage.Read(name: "key.3", firstRead: Self.start, currentValueFirstRead: nil)
            try append(
                ProgramReportLog.header(generation: 2) + ProgramReportLog.line(writtenAt: Self.start, reads: [stale]),
                to: log)
            let reader = ProgramReportReader()
            #expect(
                reader.read(forStoreAt: folder.storeURL()).reports.first?.read(named: "key.3")?.currentValueFirstRead
                    != nil)
            try Data(ProgramReportLog.header(generation: 3) + Array("{\"writtenAt\": 12}\n".utf8)).write(to: log)
            let listing = ProgramReportReader().read(forStoreAt: folder.storeURL())
            #expect(listing.reports.first?.reads.count == 10)
            #expect(listing.problems.isEmpty)
        }

        @Test("a report written by the previous build (Foundation's encoder, no generation) still reads")
        func previousFormat() throws {
            let folder = TemporaryFolder()
            let programs = ProgramReports.folder(forStoreAt: folder.storeURL())
            try FileManager.default.createDirectory(at: programs, withIntermediateDirectories: true)
            let store = ProgramReports.resolvedStorePath(folder.storeURL()).path
            let text = """
                {
                  "endedAt" : "2025-11-29T14:15:00.000Z",
                  "format" : "service-configuration-program-report",
                  "pid" : 4242,
                  "program" : "old-app",
                  "reads" : {
                    "b.key" : {
                      "firstRead" : "2025-11-29T14:05:01.000Z"
                    },
                    "a.key" : {
                      "currentValueFirstRead" : "2025-11-29T14:05:02.000Z",
                      "firstRead" : "2025-11-29T14:05:02.000Z"
                    }
                  },
                  "recordsReads" : true,
                  "rejectedOverrides" : [

                  ],
                  "startedAt" : "2025-11-29T14:05:00.000Z",
                  "store" : "\(store)",
                  "unregistered" : [

                  ],
                  "version" : 1,
                  "writtenAt" : "2025-11-29T14:05:03.000Z"
                }

                """
            try Data(text.utf8).write(to: programs.appendingPathComponent("old-app-4242-1.json"))
            let report = try #require(ProgramReports.read(forStoreAt: folder.storeURL()).reports.first)
            #expect(report.programName == "old-app")
            #expect(report.reads.map(\.name) == ["a.key", "b.key"])
            #expect(report.read(named: "b.key")?.currentValueFirstRead == nil)
            #expect(report.status == .ended)
        }
    }
#endif
