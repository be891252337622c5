import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore
import ServiceConfigurationFiles
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Evidence across runs: the values each read saw, the run history beside the store, and what `coverage --runs`
/// makes of it.
@Suite("Run history: the values reads saw, the kept runs and their aggregation")
struct ProgramRunHistoryTests {
    typealias Fixture = ConfigurationScopes.Fixture

    static let start = Date(timeIntervalSince1970: 1_796_000_000)

    /// A finished run of `program` at `version`, that read `reads` (key name to the values it saw), ended (or, with
    /// `killed`, last written) `minutes` after ``start``.
    static func run(
        _ program: String = "app", version: String?, minutes: Double, reads: [String: [String]] = [:],
        killed: Bool = false, pid: Int32 = 4242
    ) -> ProgramReport {
        let started = start.addingTimeInterval(minutes * 60)
        let ended = started.addingTimeInterval(30)
        var report = ProgramReport(
            programName: program, processIdentifier: pid, processStart: nil, storePath: "/tmp/store/overrides.json",
            startedAt: started, writtenAt: ended, endedAt: killed ? nil : ended, recordsReads: true,
            reads: reads.keys.sorted().map {
                ConfigurationReadCoverage.Read(
                    name: $0, firstRead: started, currentValueFirstRead: started, values: reads[$0]!)
            },
            unregistered: [], rejectedOverrides: [], status: killed ? .stale : .ended)
        report.programVersion = version
        return report
    }

    // MARK: Values

    @Test("a read notes each new value it used (the default's too), once, at most 16, with a count of the rest")
    func valuesSeen() throws {
        let service = LiveConfigurationService(
            serverValues: [Fixture.FlagKey.name: "y"], catalog: try fixtureCatalog(), overridePolicy: .allBuilds)
        // "y" is rejected: the program used the default, false.
        #expect(service.flag == false)
        #expect(service.flag == false)
        service.updateServerValues([Fixture.FlagKey.name: "Y"])
        #expect(service.flag == true)
        service.updateServerValues([Fixture.FlagKey.name: "N"])
        #expect(service.flag == false)
        let flag = service.readCoverage().read(named: Fixture.FlagKey.name)
        #expect(flag?.values == ["N", "Y"])
        #expect(flag?.valuesOmitted == 0)

        for count in 0..<20 {
            service.updateServerValues([Fixture.CountKey.name: String(count)])
            _ = service.count
        }
        let count = service.readCoverage().read(named: Fixture.CountKey.name)
        #expect(count?.values == (0..<16).map(String.init))
        #expect(count?.valuesOmitted == 4)

        service.updateServerValues([Fixture.GreetingKey.name: String(repeating: "a", count: 300)])
        _ = service.greeting
        let greeting = service.readCoverage().read(named: Fixture.GreetingKey.name)
        #expect(greeting?.values == [String(repeating: "a", count: 256) + "…"])
        // A value the program did not read since it changed is not noted.
        service.updateServerValues([Fixture.GreetingKey.name: "hi"])
        #expect(service.readCoverage().read(named: Fixture.GreetingKey.name)?.values.count == 1)
    }

    @Test("a report keeps the program's version and each read's values; one without them still reads")
    func reportFormat() throws {
        var report = Self.run(version: "8.2", minutes: 0, reads: ["a.flag": ["Y", "N"], "b.count": []])
        report.reads[0].valuesOmitted = 3
        let data = try report.encoded()
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""programVersion": "8.2""#))
        #expect(text.contains(#""values": ["Y","N"], "valuesOmitted": 3"#))
        let decoded = try ProgramReport(decoding: data)
        #expect(decoded.programVersion == "8.2")
        #expect(decoded.reads == report.reads)

        let older = """
            {"format": "service-configuration-program-report", "version": 1, "program": "old", "pid": 7,
             "startedAt": "2026-11-29T14:05:00.123Z", "writtenAt": "2026-11-29T14:05:00.123Z",
             "reads": {"a.flag": {"firstRead": "2026-11-29T14:05:00.123Z"}}}
            """
        let old = try ProgramReport(decoding: Data(older.utf8))
        #expect(old.programVersion == nil)
        #expect(old.reads.first?.values == [])
        let wrong = older.replacingOccurrences(of: #""firstRead""#, with: #""values": [1], "firstRead""#)
        #expect(throws: ProgramReportFormatError(#""reads.a.flag.values" holds something other than strings"#)) {
            try ProgramReport(decoding: Data(wrong.utf8))
        }
    }

    // MARK: The history

    @Test("the history keeps the newest runs by the time they ended, each once")
    func rotation() throws {
        let folder = TemporaryFolder()
        let history = ProgramRunHistory(folder: folder.url.appendingPathComponent("runs"), kept: 5)
        for index in 0..<8 {
            try history.add(Self.run(version: "1.\(index)", minutes: Double(index)), reportName: "app-1-\(index).json")
        }
        // The same run added again (its program ended it, then a sweep found it) is still one run.
        try history.add(Self.run(version: "1.7", minutes: 7), reportName: "app-1-7.json")
        let listing = history.read()
        #expect(listing.problems.isEmpty)
        #expect(listing.reports.map(\.programVersion) == ["1.7", "1.6", "1.5", "1.4", "1.3"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: history.folder.path).filter { $0.hasSuffix(".json") }
                .count == 5)
        #expect(mode(of: history.folder.path) == 0o700)
        #expect(ProgramRunHistory.keptRuns == 200)
    }

    @Test("threads adding at once lose no run and keep exactly the bound")
    func concurrentAdds() throws {
        let folder = TemporaryFolder()
        let history = ProgramRunHistory(folder: folder.url.appendingPathComponent("runs"), kept: 30)
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 40) { index in
            do {
                try history.add(
                    Self.run(version: "2.\(index)", minutes: Double(index), pid: Int32(1000 + index)),
                    reportName: "app-\(1000 + index)-1.json")
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        let listing = history.read()
        #expect(listing.problems.isEmpty)
        #expect(listing.reports.count == 30)
        #expect(listing.reports.map(\.processIdentifier) == (10..<40).reversed().map { Int32(1000 + $0) })
    }

    @Test("a link, a corrupt file, a huge file and a folder in the history are refused by name; the rest is read")
    func hostileFiles() throws {
        let folder = TemporaryFolder()
        let history = ProgramRunHistory(folder: folder.url.appendingPathComponent("runs"))
        try history.add(Self.run(version: "1.0", minutes: 0), reportName: "app-1-1.json")
        let link = history.folder.appendingPathComponent("20260101T000000000Z-link-1-1.json")
        symlink(
            history.folder.appendingPathComponent(
                try #require(history.read().reports.first?.fileURL?.lastPathComponent)
            ).path, link.path)
        let corrupt = history.folder.appendingPathComponent("20260101T000000000Z-corrupt-1-1.json")
        try Data("{\"format\": \"service-configuration-program-report\", ".utf8).write(to: corrupt)
        let huge = history.folder.appendingPathComponent("20260101T000000000Z-huge-1-1.json")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
        #expect(truncate(huge.path, off_t(ProgramRunHistory.maximumSize + 1)) == 0)
        let directory = history.folder.appendingPathComponent("20260101T000000000Z-folder-1-1.json")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)

        let listing = history.read()
        #expect(listing.reports.map(\.programVersion) == ["1.0"])
        let problems = Dictionary(uniqueKeysWithValues: listing.problems.map { ($0.url.lastPathComponent, $0.problem) })
        #expect(problems.count == 4)
        #expect(problems[link.lastPathComponent]?.contains("symbolic link") == true)
        #expect(problems[corrupt.lastPathComponent]?.isEmpty == false)
        #expect(problems[huge.lastPathComponent]?.contains("the limit is 32 MiB") == true)
        #expect(problems[directory.lastPathComponent] == "not a regular file")
        #expect(listing.problems.allSatisfy { $0.description.hasPrefix(history.folder.path) })

        // A history that is a link is not read at all.
        let elsewhere = TemporaryFolder()
        let linked = elsewhere.url.appendingPathComponent("runs")
        symlink(history.folder.path, linked.path)
        let refused = ProgramRunHistory(folder: linked).read()
        #expect(refused.reports.isEmpty)
        #expect(refused.problems.map(\.url) == [linked])
    }

    #if DebugOverrides
        @Test("a program's end adds its run; a killed program's report is swept in by the next program")
        func publishing() throws {
            let folder = TemporaryFolder()
            let options = LiveConfigurationService.Options(onWarning: nil, programName: "runner")
            let ended = LiveConfigurationService(
                catalog: try fixtureCatalog(), overrideStore: FileOverrideStore(url: folder.storeURL()),
                watchMode: nil, options: options, programVersion: ProgramVersion("8.2"))
            _ = ended.flag
            ended.endProgramReport()
            let history = ProgramRunHistory(forStoreAt: folder.storeURL())
            var runs = history.read().reports
            #expect(runs.count == 1)
            #expect(runs.first?.programVersion == "8.2")
            #expect(runs.first?.status == .ended)
            #expect(runs.first?.read(named: Fixture.FlagKey.name)?.values == ["N"])

            // A report whose writer is gone without ending it: a killed run.
            let exited = try ChildProcess("/bin/true", [], standardInput: .null, standardOutput: .discard)
            _ = exited.waitUntilExit()
            var killed = Self.run("killed", version: "8.3", minutes: 1, reads: [Fixture.FlagKey.name: ["Y"]])
            killed.processIdentifier = exited.processIdentifier
            killed.endedAt = nil
            killed.storePath = ProgramReports.resolvedStorePath(folder.storeURL()).path
            let programs = ProgramReports.folder(forStoreAt: folder.storeURL())
            try killed.encoded().write(to: programs.appendingPathComponent("killed-\(exited.processIdentifier)-1.json"))
            #expect(history.read().reports.count == 1)

            let next = LiveConfigurationService(
                catalog: try fixtureCatalog(), overrideStore: FileOverrideStore(url: folder.storeURL()),
                watchMode: nil, options: options)
            _ = next.count
            next.publishProgramReportNow()
            runs = history.read().reports
            #expect(runs.map(\.programName).sorted() == ["killed", "runner"])
            let swept = try #require(runs.first { $0.programName == "killed" })
            #expect(swept.status == .stale)
            #expect(swept.endedAt == nil)
            #expect(swept.read(named: Fixture.FlagKey.name)?.values == ["Y"])
            // Sweeping again adds nothing.
            #expect(try history.add(ProgramReports.read(forStoreAt: folder.storeURL()).reports) == 0)
            next.endProgramReport()
        }
    #endif

    // MARK: Aggregation

    @Test("the evidence counts runs per key and per value, the programs and versions, and keys never read")
    func aggregation() {
        let evidence = ProgramRunEvidence(runs: [
            Self.run(version: "8.3", minutes: 3, reads: ["flag": ["Y"], "mode": ["on"]]),
            Self.run(version: "8.2", minutes: 2, reads: ["flag": ["N", "Y"]], killed: true),
            Self.run("other", version: nil, minutes: 1, reads: ["flag": ["N"], "old": []]),
        ])
        #expect(evidence.runs.count == 3)
        #expect(evidence.keys.map(\.name) == ["flag", "mode", "old"])
        let flag = evidence.key(named: "flag")
        #expect(flag?.runs == 3)
        #expect(flag?.values == [.init(value: "Y", runs: 2), .init(value: "N", runs: 2)])
        #expect(evidence.key(named: "old")?.runsWithoutValues == 1)
        #expect(evidence.neverRead(catalogKeys: ["unused", "flag", "also.unused"]) == ["also.unused", "unused"])
        #expect(evidence.programs.map(\.name) == ["app", "app", "other"])
        #expect(evidence.programs.map(\.version) == ["8.2", "8.3", nil])
    }

    @Test(
        "--since takes a version (runs of it or newer, unversioned ones out) or a day or time (runs started then or later)"
    )
    func since() throws {
        let runs = [
            Self.run(version: "8.10", minutes: 40),
            Self.run(version: "8.2", minutes: 30),
            Self.run(version: "8.1.9", minutes: 20),
            Self.run(version: nil, minutes: 10),
        ]
        let version = try #require(ProgramRunEvidence.Since("8.2"))
        #expect(version == .version(ProgramVersion("8.2")!))
        #expect(ProgramRunEvidence(runs: runs, since: version).runs.map(\.programVersion) == ["8.10", "8.2"])

        let day = try #require(ProgramRunEvidence.Since("2026-12-01"))
        #expect(day == .date(Timestamp.parse("2026-12-01T00:00:00.000Z")!))
        let time = try #require(ProgramRunEvidence.Since(Timestamp.format(Self.start.addingTimeInterval(15 * 60))))
        #expect(ProgramRunEvidence(runs: runs, since: time).runs.map(\.programVersion) == ["8.10", "8.2", "8.1.9"])
        let later = ProgramRunEvidence.Since.date(Self.start.addingTimeInterval(3600))
        #expect(ProgramRunEvidence(runs: runs, since: later).runs.isEmpty)

        for bad in ["2026-13-01", "2026-02-30", "8.2-beta", "yesterday", ""] {
            #expect(ProgramRunEvidence.Since(bad) == nil, "\(bad)")
        }
    }

    @Test(
        "--require-both: a Bool needs both values, an experiment each enabled variant and an off one; other keys are refused"
    )
    func bothSides() throws {
        let catalog = try fixtureCatalog()
        let flag = try #require(catalog.descriptor(named: Fixture.FlagKey.name))
        let experiment = try #require(catalog.descriptor(named: Fixture.ExperimentKey.name))
        let mode = try #require(catalog.descriptor(named: Fixture.ModeKey.name))
        let count = try #require(catalog.descriptor(named: Fixture.CountKey.name))
        let oneSided = ProgramRunEvidence(runs: [
            Self.run(version: "1", minutes: 1, reads: [flag.name: ["N"], experiment.name: ["on"], mode.name: ["off"]]),
            Self.run(version: "1", minutes: 2, reads: [flag.name: ["N"], experiment.name: ["on"]]),
        ])
        let onlyOff = try oneSided.exercise(of: flag)
        #expect(onlyOff.kind == .bool)
        #expect(onlyOff.sides == [["Y"], ["N"]])
        #expect(onlyOff.seen == ["N"])
        #expect(onlyOff.missing == [["Y"]])
        #expect(onlyOff.runs == 2)
        #expect(!onlyOff.isExercised)
        let onlyOn = try oneSided.exercise(of: experiment)
        #expect(onlyOn.kind == .choice)
        #expect(onlyOn.sides == [["on"], ["none", "off"]])
        #expect(onlyOn.missing == [["none", "off"]])
        #expect(try oneSided.exercise(of: mode).missing == [["automatic"], ["manual"]])
        #expect(throws: ProgramRunEvidence.ExerciseProblem.notBoolOrChoice("number (integer)")) {
            try oneSided.exercise(of: count)
        }

        let bothSides = ProgramRunEvidence(runs: [
            Self.run(version: "1", minutes: 1, reads: [flag.name: ["N"], experiment.name: ["on"]]),
            Self.run(version: "1", minutes: 2, reads: [flag.name: ["Y"], experiment.name: ["none"]]),
        ])
        #expect(try bothSides.exercise(of: flag).isExercised)
        #expect(try bothSides.exercise(of: experiment).isExercised)
        let never = try ProgramRunEvidence(runs: []).exercise(of: flag)
        #expect(never.runs == 0)
        #expect(never.missing == [["Y"], ["N"]])
    }
}

/// The run history of an etcd store: `PREFIX.runs/<end>-<report name>.json`, on no lease, the newest kept.
@Suite(
    "Run history on an etcd store: kept beside the prefix, the newest runs, unreadable keys named",
    .enabled(if: EtcdFixture.available, "etcd is not installed (scripts/setup-debian installs etcd-server)"))
struct EtcdRunHistoryTests {
    @Test("adding keeps the newest runs by the time they ended; a key that is not a run is refused by name")
    func rotationAndHostileKeys() throws {
        let etcd = try EtcdFixture.shared()
        let prefix = EtcdFixture.prefix("runs")
        let store = try EtcdFixture.store(etcd, prefix: prefix)
        let history = EtcdRunHistory(client: store.client, kept: 3)
        for index in 0..<5 {
            var run = ProgramRunHistoryTests.run(version: "3.\(index)", minutes: Double(index))
            run.fileURL = URL(string: "etcd://127.0.0.1:\(etcd.port)\(prefix).programs/app-42-\(index)")
            #expect(try history.add([run]) == 1)
            // Already there: not added twice.
            #expect(try history.add([run]) == 0)
        }
        let keys = try EtcdFixture.keys(under: prefix + ".runs", in: etcd)
        #expect(keys.count == 3)
        #expect(keys.keys.allSatisfy { $0.hasSuffix(".json") && $0.contains("-app-42-") })
        #expect(try EtcdFixture.keys(under: prefix, in: etcd).isEmpty)

        let broken = prefix + ".runs/20260101T000000000Z-broken-1-1.json"
        try EtcdFixture.put(Array("{\"format\": 1".utf8), at: broken, in: etcd)
        let listing = history.read()
        #expect(listing.reports.map(\.programVersion) == ["3.4", "3.3", "3.2"])
        #expect(listing.reports.allSatisfy { $0.status == .ended })
        #expect(listing.problems.map { $0.url.path } == [broken])
    }
}
