import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

@testable import ServiceConfigurationEtcd

#if canImport(Glibc)
    import Glibc
#endif

#if DebugOverrides
    @Suite(
        "Program reports on an etcd store: published beside the prefix on a lease, read back by the tools",
        .enabled(if: EtcdFixture.available, "etcd is not installed (scripts/setup-debian installs etcd-server)"))
    struct EtcdProgramReportTests {
        typealias Fixture = ConfigurationScopes.Fixture
        typealias LimitKey = ConfigurationScopes.Unlisted.LimitKey

        func makeService(
            _ store: EtcdOverrideStore, name: String = "etcd-report-test", warnings: WarningLog? = nil,
            configure: (inout LiveConfigurationService.Options) -> Void = { _ in }
        ) throws -> LiveConfigurationService {
            var options = LiveConfigurationService.Options(onWarning: warnings?.hook, programName: name)
            configure(&options)
            return LiveConfigurationService(
                serverValues: [Fixture.CountKey.name: "5"], catalog: try fixtureCatalog(), overrideStore: store,
                watchMode: nil, options: options)
        }

        /// The report keys beside `prefix`, with their leases, as etcdctl reads them (independently of the store).
        func reportKeys(_ prefix: String, in etcd: EtcdTestServer) throws -> [String: Int64] {
            let result = try etcd.etcdctl(["get", "--prefix", prefix + ".programs/", "-w", "json"])
            guard result.status == 0 else { throw FixtureError("etcdctl get failed: \(result.error)") }
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
            var keys: [String: Int64] = [:]
            for kv in object["kvs"] as? [[String: Any]] ?? [] {
                let key = Data(base64Encoded: kv["key"] as? String ?? "") ?? Data()
                keys[String(decoding: key, as: UTF8.self)] = (kv["lease"] as? NSNumber)?.int64Value ?? 0
            }
            return keys
        }

        /// The seconds etcd says `lease` has left (-1: gone).
        func timeToLive(_ lease: Int64, in etcd: EtcdTestServer) throws -> Int {
            let result = try etcd.etcdctl(["lease", "timetolive", String(lease, radix: 16), "-w", "json"])
            let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
            return (object?["ttl"] as? NSNumber)?.intValue ?? -1
        }

        @Test("a program publishes its reads beside the prefix on a lease; the reader shows it running, with its host")
        func publishes() throws {
            let etcd = try EtcdFixture.shared()
            let prefix = EtcdFixture.prefix("report")
            let store = try EtcdFixture.store(etcd, prefix: prefix)
            try store.modify { $0[Fixture.FlagKey.name] = OverrideEntry(value: "yes") }
            let service = try makeService(store, name: "Demo App\u{1B}]0;x")
            #expect(service.count == 5)
            #expect(service.flag == false)
            _ = service.unlistedLimit
            service.publishProgramReportNow()
            #expect(service.programReportWriteCount >= 1)

            let keys = try reportKeys(prefix, in: etcd)
            #expect(keys.count == 1)
            let (key, lease) = try #require(keys.first)
            #expect(key.hasPrefix("\(prefix).programs/Demo_App__0_x-\(getpid())-"))
            #expect(service.etcdProgramReportKey.map { String(decoding: $0, as: UTF8.self) } == key)
            #expect(lease != 0)
            let ttl = try timeToLive(lease, in: etcd)
            #expect(ttl > 0 && ttl <= 30)

            let listing = EtcdProgramReportReader(client: store.client).read()
            #expect(listing.problems.isEmpty)
            let report = try #require(listing.reports.first)
            #expect(listing.reports.count == 1)
            #expect(report.programName == "Demo App\u{1B}]0;x")
            #expect(report.processIdentifier == getpid())
            #expect(report.host == EtcdProgramReports.currentHost)
            #expect(report.status == .running)
            #expect(report.storePath == store.location)
            #expect(
                report.label == "Demo App\\u{001B}]0;x (pid \(getpid()) on \(EtcdProgramReports.currentHost), running)")
            #expect(report.reads.map(\.name) == [Fixture.CountKey.name, Fixture.FlagKey.name, LimitKey.name].sorted())
            #expect(report.unregistered.map(\.name) == [LimitKey.name])
            #expect(report.rejectedOverrides.map(\.name) == [Fixture.FlagKey.name])
            #expect(report.omitted.isEmpty)
            #expect(
                report.fileURL?.absoluteString.hasPrefix("etcd://127.0.0.1:\(etcd.port)\(prefix).programs/") == true)

            // Never an override, an orphan or a problem of the store, read whole or watched.
            #expect(store.reload() == nil)
            #expect(Array(store.entries.keys) == [Fixture.FlagKey.name])
            #expect(store.problems.isEmpty)
            #expect(
                try EtcdFixture.keys(under: prefix, in: etcd).keys.sorted() == ["\(prefix)/\(Fixture.FlagKey.name)"])
            // Removing every override keeps the report.
            try store.removeAll()
            #expect(try reportKeys(prefix, in: etcd).count == 1)
        }

        @Test("reads after the first publish go out at most once per interval, and only when the report changed")
        func batches() async throws {
            let etcd = try EtcdFixture.shared()
            let store = try EtcdFixture.store(etcd, prefix: EtcdFixture.prefix("batch"))
            let service = try makeService(store) { $0.programReportInterval = .milliseconds(300) }
            _ = service.count
            #expect(await poll(within: 10) { service.programReportWriteCount == 1 })
            for _ in 0..<1000 { _ = service.count }
            _ = service.flag
            #expect(
                await poll(within: 10) {
                    EtcdProgramReportReader(client: store.client).read().reports.first?.reads.count == 2
                })
            // The count moves once the put has returned, so a reader may see the report a moment before it does.
            #expect(await poll(within: 10) { service.programReportWriteCount == 2 })
            let writes = service.programReportWriteCount
            #expect(writes == 2)
            try await Task.sleep(for: .milliseconds(900))
            // Nothing new was read: nothing more was written.
            #expect(service.programReportWriteCount == writes)
        }

        @Test("an ended report stays on a lease of its own, then expires; the running lease is revoked")
        func ended() async throws {
            let etcd = try EtcdFixture.shared()
            let prefix = EtcdFixture.prefix("ended")
            let store = try EtcdFixture.store(etcd, prefix: prefix)
            let service = try makeService(store) { $0.endedProgramReportLifetime = .seconds(3) }
            _ = service.count
            service.publishProgramReportNow()
            let running = try #require(try reportKeys(prefix, in: etcd).first?.value)
            service.endProgramReport()
            let after = try reportKeys(prefix, in: etcd)
            #expect(after.count == 1)
            let endedLease = try #require(after.first?.value)
            #expect(endedLease != running && endedLease != 0)
            #expect(try timeToLive(running, in: etcd) == -1)
            let report = try #require(EtcdProgramReportReader(client: store.client).read().reports.first)
            #expect(report.status == .ended)
            #expect(report.endedAt != nil)
            // Nothing keeps the ended lease alive: etcd removes the report after its lifetime.
            #expect(try await poll(within: 15) { try reportKeys(prefix, in: etcd).isEmpty })
        }

        @Test(
            "a report whose lease is not kept alive disappears; one without a lease, or of a dead local pid, is stale")
        func staleAndExpired() async throws {
            let etcd = try EtcdFixture.shared()
            let prefix = EtcdFixture.prefix("stale")
            let store = try EtcdFixture.store(etcd, prefix: prefix)
            let endpoint = store.client.endpoint
            var report = ProgramReport(
                programName: "gone", processIdentifier: 999_999, processStart: "x/1", storePath: store.location,
                startedAt: Date(), writtenAt: Date(), endedAt: nil, recordsReads: true, reads: [], unregistered: [],
                rejectedOverrides: [])
            report.host = "another-machine"
            let data = [UInt8](try report.encoded())
            // No lease: nothing will remove it, its writer cannot be asked: stale.
            _ = try store.client.put(data, at: EtcdProgramReports.key("no-lease-1-a", for: endpoint), lease: 0)
            // This machine, a pid that does not run: stale before its lease expires.
            report.host = EtcdProgramReports.currentHost
            let lease = try store.client.grantLease(ttl: 2)
            _ = try store.client.put(
                [UInt8](try report.encoded()), at: EtcdProgramReports.key("local-2-b", for: endpoint), lease: lease)
            // Another machine on a live lease: running (its pid cannot be checked from here).
            report.host = "another-machine"
            report.programName = "remote"
            let remoteLease = try store.client.grantLease(ttl: 60)
            _ = try store.client.put(
                [UInt8](try report.encoded()), at: EtcdProgramReports.key("remote-3-c", for: endpoint),
                lease: remoteLease)

            let reader = EtcdProgramReportReader(client: store.client)
            let listing = reader.read()
            #expect(listing.problems.isEmpty)
            let statuses = Dictionary(
                uniqueKeysWithValues: listing.reports.map { ($0.fileURL?.lastPathComponent ?? "", $0.status) })
            #expect(statuses == ["no-lease-1-a": .stale, "local-2-b": .stale, "remote-3-c": .running])
            // The lease nobody keeps alive expires: the report is gone.
            #expect(
                await poll(within: 15) {
                    !reader.read().reports.contains { $0.fileURL?.lastPathComponent == "local-2-b" }
                })
            try store.client.revoke(lease: remoteLease)
            #expect(reader.read().reports.map(\.programName) == ["gone"])
        }

        @Test("etcd killed, wiped and started again: the running program's report comes back on a new lease")
        func etcdReplaced() async throws {
            let etcd = try EtcdTestServer.start()
            defer { etcd.stop() }
            let prefix = EtcdFixture.prefix("replaced")
            let store = try EtcdFixture.store(etcd, prefix: prefix)
            let warnings = WarningLog()
            let service = try makeService(store, warnings: warnings) { $0.programReportLifetime = .seconds(3) }
            _ = service.count
            service.publishProgramReportNow()
            let before = try #require(try reportKeys(prefix, in: etcd).first)
            etcd.kill()
            try etcd.wipeData()
            try etcd.restart()
            // Its data wiped, etcd holds no report; the next keep-alive finds the lease unknown: the report is published again, nothing read since.
            var after: (key: String, value: Int64)?
            #expect(
                try await poll(within: 20) {
                    after = try reportKeys(prefix, in: etcd).first
                    return after != nil
                })
            #expect(after?.key == before.key)
            #expect(after.map { $0.value != 0 } == true)
            let report = try #require(EtcdProgramReportReader(client: store.client).read().reports.first)
            #expect(report.status == .running)
            #expect(report.reads.map(\.name) == [Fixture.CountKey.name])
        }

        @Test("hostile values in the reports' namespace are problems, never reports, overrides or crashes")
        func hostile() throws {
            let etcd = try EtcdFixture.shared()
            let prefix = EtcdFixture.prefix("hostile")
            let store = try EtcdFixture.store(etcd, prefix: prefix)
            let base = prefix + ".programs/"
            try EtcdFixture.put(Array("{not json".utf8), at: base + "bad-json", in: etcd)
            try EtcdFixture.put(Array("{\"format\": \"something else\"}".utf8), at: base + "other-format", in: etcd)
            try EtcdFixture.put([0xFF, 0xFE, 0x00, 0x1B], at: base + "binary", in: etcd)
            try EtcdFixture.put(
                Array("{\"format\": ".utf8) + Array(repeating: UInt8(ascii: "["), count: 1_400_000), at: base + "huge",
                in: etcd)
            try EtcdFixture.put(Array("".utf8), at: base + "empty", in: etcd)
            var report = ProgramReport(
                programName: "evil\u{1B}[2J\u{7}", processIdentifier: 1, processStart: nil, storePath: nil,
                startedAt: Date(), writtenAt: Date(), endedAt: Date(), recordsReads: true,
                reads: [.init(name: "key\u{1B}[31m", firstRead: Date(), currentValueFirstRead: nil)], unregistered: [],
                rejectedOverrides: [])
            report.host = "host\u{1B}]0;title\u{7}"
            try EtcdFixture.put([UInt8](try report.encoded()), at: base + "control\u{1B}[1m", in: etcd)

            let listing = EtcdProgramReportReader(client: store.client).read()
            #expect(
                Set(listing.problems.map { $0.url.lastPathComponent }) == [
                    "bad-json", "other-format", "binary", "huge", "empty",
                ])
            for problem in listing.problems {
                #expect(!problem.description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
            }
            let shown = try #require(listing.reports.first)
            #expect(listing.reports.count == 1)
            #expect(shown.status == .ended)
            #expect(!shown.label.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
            // The store sees none of it.
            #expect(store.reload() == nil)
            #expect(store.entries.isEmpty)
            #expect(store.problems.isEmpty)
        }

        @Test("a report larger than etcd accepts is published in part, saying how much was left out")
        func tooLarge() throws {
            let now = Date()
            let reads = (0..<20_000).map {
                ConfigurationReadCoverage.Read(
                    name: "function.generated.key_\(String(format: "%05d", $0))", firstRead: now,
                    currentValueFirstRead: now)
            }
            let report = ProgramReport(
                programName: "big", processIdentifier: 7, processStart: nil, storePath: nil, startedAt: now,
                writtenAt: now, endedAt: nil, recordsReads: true, reads: reads, unregistered: [],
                rejectedOverrides: [.init(name: "x", value: String(repeating: "v", count: 300_000), reason: "no")])
            let whole = try report.encoded()
            #expect(whole.count > 1 << 20)
            let (data, omitted) = try EtcdProgramReportPublisher.fitted(report, budget: 256 << 10)
            #expect(data.count <= 256 << 10)
            #expect(data.count > 200 << 10)  // it uses the room it has
            let decoded = try ProgramReport(decoding: Data(data))
            #expect(decoded.omitted == omitted)
            #expect(omitted.reads > 0 && omitted.rejectedOverrides == 1)
            #expect(decoded.reads.count + omitted.reads == reads.count)
            // Compared apart (20,000 reads would fill the log); names only: the report keeps milliseconds.
            let keptFirst = decoded.reads.map(\.name) == reads.prefix(decoded.reads.count).map(\.name)
            #expect(keptFirst)
            #expect(omitted.description == "\(omitted.reads) reads and 1 rejected override left out")
            // A report that fits is whole.
            let small = try EtcdProgramReportPublisher.fitted(report, budget: whole.count)
            #expect(small.omitted.isEmpty && small.data.count == whole.count)

            // Through a real etcd: the part published is what the reader reads.
            let etcd = try EtcdFixture.shared()
            let store = try EtcdFixture.store(etcd, prefix: EtcdFixture.prefix("large"))
            let fitted = try EtcdProgramReportPublisher.fitted(report, budget: EtcdProgramReportPublisher.initialBudget)
            _ = try store.client.put(
                fitted.data, at: EtcdProgramReports.key("big-7-a", for: store.client.endpoint), lease: 0)
            let read = try #require(EtcdProgramReportReader(client: store.client).read().reports.first)
            #expect(read.omitted == fitted.omitted && !read.omitted.isEmpty)
        }

        @Test("etcd out of reach: reads stay fast, the report is warned about once and never counted as written")
        func unreachable() async throws {
            let store = try EtcdOverrideStore(
                endpoint: EtcdEndpoint(
                    url: URL(string: "etcd://127.0.0.1:\(FixtureHTTPServer.closedPort())/down")!, environment: [:]),
                timeout: .seconds(1))
            let warnings = WarningLog()
            let service = try makeService(store, warnings: warnings) { $0.programReportInterval = .milliseconds(50) }
            let started = ContinuousClock.now
            for round in 0..<200 {
                _ = service.count
                if round % 20 == 0 { _ = service.flag }
            }
            #expect(ContinuousClock.now - started < .milliseconds(500))
            #expect(
                await poll(within: 10) {
                    warnings.all.contains {
                        if case .programReportNotWritten(let path, _) = $0 { return path.hasPrefix("etcd://") }
                        return false
                    }
                })
            try await Task.sleep(for: .milliseconds(500))
            let reportWarnings = warnings.all.filter {
                if case .programReportNotWritten = $0 { return true }
                return false
            }
            #expect(reportWarnings.count == 1, "\(reportWarnings.map(\.description))")
            #expect(reportWarnings.first?.description.contains("check that etcd answers") == true)
            #expect(service.programReportWriteCount == 0)
        }
    }
#endif
