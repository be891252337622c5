import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// An etcd that hangs rather than refuses: stopped with SIGSTOP, its port still accepts connections (the kernel
/// completes them) but nothing answers. Every call must end within its timeout, naming the endpoint.
@Suite(
    "etcd that hangs (SIGSTOP): calls time out naming the endpoint, nothing is lost",
    .enabled(if: EtcdFixture.available, "etcd is not installed (scripts/setup-debian installs etcd-server)"))
struct EtcdHangTests {
    typealias Fixture = ConfigurationScopes.Fixture

    @Test(
        "a change, a read, a fetch and a sync of a stopped etcd fail within their timeout; after SIGCONT all work",
        .timeLimit(.minutes(3)))
    func stoppedEtcd() async throws {
        let etcd = try EtcdTestServer.start()
        let location = "etcd://127.0.0.1:\(etcd.port)/hang/overrides"
        let store = try EtcdOverrideStore(url: URL(string: location)!, timeout: .seconds(1), environment: [:])
        try store.modify { $0["kept"] = OverrideEntry(value: "kept") }
        let source = try EtcdServerValuesSource(url: etcd.url(prefix: "/hang/values"), timeout: .seconds(1))
        let folder = TemporaryFolder()
        let service = LiveConfigurationService(catalog: try fixtureCatalog(), overridePolicy: .allBuilds)
        let sync = ServerValuesSync(
            source: source, service: service, snapshotURL: SyncFixture.snapshotURL(in: folder),
            backoff: ServerSyncBackoff(initial: .milliseconds(200), maximum: .milliseconds(500)), environment: .live)

        let pid = etcd.processID
        #expect(pid > 0 && kill(pid, SIGSTOP) == 0)
        defer { kill(pid, SIGCONT) }
        let clock = ContinuousClock()

        // A change: its transaction is sent (the store read the prefix before) and not answered.
        var changeError: OverrideStoreError?
        let changing = clock.measure {
            do throws(OverrideStoreError) {
                try store.modify { $0["new"] = OverrideEntry(value: "1") }
            } catch {
                changeError = error
            }
        }
        #expect(
            changing < .seconds(30), "a call or two of 1 s (30 s: room for a loaded machine), not a hang: \(changing)")
        let changeMessage = changeError?.description ?? "no error"
        #expect(changeMessage.hasPrefix("\(location): "), "names the endpoint: \(changeMessage)")
        #expect(changeMessage.contains("etcd did not answer within 1 s"), "\(changeMessage)")
        #expect(changeError?.kind == .outcomeUnknown, "sent and not answered: \(changeMessage)")
        #expect(store.entry(forKey: "kept")?.value == "kept", "what was read stays")

        // A read.
        var readError: OverrideStoreError?
        let reading = clock.measure { readError = store.reload() }
        #expect(reading < .seconds(30), "\(reading)")
        #expect(
            readError?.description.contains("did not answer within 1 s") == true, "\(String(describing: readError))")
        #expect(store.entries.keys.sorted() == ["kept"], "the overrides last read keep applying")

        // A fetch of server values, and a sync (its status names the source and says why it is not fresh).
        var fetchError: ServerSyncError?
        let fetching = await clock.measure {
            do throws(ServerSyncError) {
                _ = try await source.fetch(ifChangedSince: ServerValuesValidators())
            } catch {
                fetchError = error
            }
        }
        #expect(fetching < .seconds(runsUnderThreadSanitizer ? 120 : 30), "\(fetching)")
        #expect(fetchError?.kind == .timedOut && fetchError?.reason == "etcd did not answer within 1 s")
        let syncing = await clock.measure { _ = await sync.sync() }
        // Bounded, not hung (a 1 s timeout and one backoff step; ThreadSanitizer on two loaded cores took 56 s).
        #expect(syncing < .seconds(runsUnderThreadSanitizer ? 120 : 30), "\(syncing)")
        #expect(sync.status.source == "etcd://127.0.0.1:\(etcd.port)/hang/values")
        #expect(sync.status.lastError?.reason == "etcd did not answer within 1 s")

        // Running again: everything works, nothing was lost or half-written.
        #expect(kill(pid, SIGCONT) == 0)
        try store.modify { $0["new"] = OverrideEntry(value: "1") }
        #expect(store.reload() == nil)
        #expect(store.entries.mapValues(\.value) == ["kept": "kept", "new": "1"])
        try EtcdFixture.put(Array("7".utf8), at: "/hang/values/\(SyncFixture.count)", in: etcd)
        _ = await sync.sync()
        #expect(sync.status.state.name == "fresh" && service.count == 7)
    }

    @Test(
        "a change sent to a stopped etcd has an unknown outcome: the error says so, never that nothing was saved",
        .timeLimit(.minutes(3)))
    func changeToStoppedEtcd() async throws {
        let etcd = try EtcdTestServer.start()
        let location = "etcd://127.0.0.1:\(etcd.port)/hang/unknown"
        let store = try EtcdOverrideStore(url: URL(string: location)!, timeout: .seconds(1), environment: [:])
        #expect(store.reload() == nil, "read before etcd stops: the change's transaction is the first call")
        let pid = etcd.processID
        #expect(pid > 0 && kill(pid, SIGSTOP) == 0)
        defer { kill(pid, SIGCONT) }
        func failure(_ change: () throws(OverrideStoreError) -> Void) -> OverrideStoreError? {
            do throws(OverrideStoreError) {
                try change()
                return nil
            } catch {
                return error
            }
        }
        for error in [
            failure { () throws(OverrideStoreError) in try store.modify { $0["new"] = OverrideEntry(value: "1") } },
            failure { () throws(OverrideStoreError) in try store.removeValue(forKey: "new") },
            failure { () throws(OverrideStoreError) in try store.removeAll() },
        ] {
            let message = error?.description ?? "no error"
            #expect(error?.kind == .outcomeUnknown, "\(message)")
            #expect(message.hasPrefix("\(location): cannot tell whether the change was saved: "), "\(message)")
            #expect(message.contains("etcd did not answer within 1 s"), "\(message)")
            #expect(message.contains("it may still arrive"), "\(message)")
            #expect(!message.contains("nothing was saved"), "that is not known: \(message)")
        }
        #expect(store.lastError?.kind == .outcomeUnknown, "the store's last error says the same")
        // A read that is not answered is a plain timeout: nothing was sent that could change anything.
        #expect(store.reload()?.kind == .io)
        #expect(kill(pid, SIGCONT) == 0)
        #expect(store.reload() == nil, "the next read tells what happened")
        #expect(store.lastError == nil)
    }

    @Test(
        "a change etcd made but whose answer was lost, and one it never received: both unknown, the next read tells",
        .timeLimit(.minutes(3)))
    func unansweredChanges() throws {
        let etcd = try EtcdFixture.shared()
        let proxy = try EtcdTestProxy(etcd)
        let prefix = EtcdFixture.prefix("unanswered")
        let store = try EtcdOverrideStore(url: proxy.url(prefix: prefix), timeout: .seconds(1), environment: [:])
        #expect(store.reload() == nil)

        try proxy.setMode(.hold)
        #expect(throws: OverrideStoreError.self) { try store.modify { $0["made"] = OverrideEntry(value: "1") } }
        #expect(store.lastError?.kind == .outcomeUnknown)
        try proxy.setMode(.drop)
        #expect(throws: OverrideStoreError.self) { try store.modify { $0["lost"] = OverrideEntry(value: "2") } }
        #expect(store.lastError?.kind == .outcomeUnknown)
        #expect(proxy.withheld == ["hold /v3/kv/txn", "drop /v3/kv/txn"])

        try proxy.setMode(.pass)
        #expect(store.reload() == nil)
        #expect(store.entries.mapValues(\.value) == ["made": "1"], "the held change was made, the dropped one not")
        #expect(try EtcdFixture.keys(under: prefix, in: etcd).keys.sorted() == ["\(prefix)/made"])
    }

    @Test(
        "a watching store notices an etcd that hangs within its check interval, and recovers when it answers again",
        .timeLimit(.minutes(3)))
    func watchOfStoppedEtcd() async throws {
        let etcd = try EtcdTestServer.start()
        let endpoint = try EtcdEndpoint(url: etcd.url(prefix: "/hang/watched"), environment: [:])
        let store = EtcdOverrideStore(
            endpoint: endpoint, timeout: .seconds(1),
            backoff: ServerSyncBackoff(initial: .milliseconds(100), maximum: .milliseconds(300)),
            watchCheckInterval: .milliseconds(300))
        let service = LiveConfigurationService(
            catalog: try fixtureCatalog(), overrideStore: store, overridePolicy: .allBuilds)
        let writer = try EtcdFixture.store(etcd, prefix: "/hang/watched")
        try writer.modify { $0[Fixture.CountKey.name] = OverrideEntry(value: "3") }
        #expect(await pollUntil(within: 10) { service.count == 3 }, "live through the watch")
        #expect(store.liveReloadProblem == nil)

        let pid = etcd.processID
        #expect(pid > 0 && kill(pid, SIGSTOP) == 0)
        defer { kill(pid, SIGCONT) }
        // Silent, not closed: only the check can tell (the stream's own limit is 15 minutes).
        #expect(await pollUntil(within: 10) { store.liveReloadProblem != nil }, "the hang is noticed")
        let problem = store.liveReloadProblem ?? ""
        #expect(problem.contains("etcd://127.0.0.1:\(etcd.port)/hang/watched"), "\(problem)")
        #expect(problem.contains("did not answer within 1 s"), "\(problem)")
        #expect(problem.contains("the overrides last read keep applying"), "\(problem)")
        #expect(service.count == 3, "and the override keeps applying")

        #expect(kill(pid, SIGCONT) == 0)
        #expect(await pollUntil(within: 10) { store.liveReloadProblem == nil }, "the watch is set up again")
        try writer.modify { $0[Fixture.CountKey.name] = OverrideEntry(value: "4") }
        #expect(await pollUntil(within: 10) { service.count == 4 }, "live again")
        store.stopWatching()
    }
}
