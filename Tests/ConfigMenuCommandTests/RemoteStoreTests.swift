import ConfigurationServer
import DemoConfiguration
import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore
import ServiceConfigurationRemoteStore
import ServiceConfigurationSync
import ServiceConfigurationTesting
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `HTTPOverrideStore`: the override store a `config-menu serve` serves, used from other processes as their own
/// (`--store http://HOST:PORT`, `CONFIG_OVERRIDES_STORE`). Real servers on free loopback ports: an in-process
/// `OFREPServer` on a file store for the conformance suite, `config-menu serve` processes for the rest.
@Suite("HTTPOverrideStore: a config-menu serve's store, used over HTTP", .serialized)
struct RemoteStoreTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remote-store-\(UUID().uuidString)")
    var file: String { folder.appendingPathComponent("overrides.json").path }

    static let typing = "function.chat.typing_interval_ms"
    static let like = "function.album.like.enabled"
    static let toggles = [
        "function.profile.birthday_visible.enabled", "function.timeline.autoplay_videos.enabled",
        "function.calls.video.enabled", "function.payments.enabled", "function.chat.typing_indicator.enabled",
    ]

    // MARK: Servers

    /// A running `config-menu serve` on a free loopback port, serving `file` (its banner names the store's route).
    func serve(_ extra: [String] = []) async throws -> ServedMenu {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let served = try await ServedMenu.start(store: file, extra)
        let text = served.process.lines.joined(separator: "\n")
        #expect(text.contains("store: http://127.0.0.1:\(served.port)/store/v1/overrides"), "\(text)")
        return served
    }

    /// In-process servers, each on a file store of its own, for the conformance suite.
    final class InProcessServers: Sendable {
        let folder: URL
        private let servers = Locked<[(server: OFREPServer, file: URL, base: String)]>([])

        init(folder: URL) { self.folder = folder }

        /// A new server on a new, empty file store; returns its address.
        func start(requestsPerSecond: Double = 100, burst: Double = 200) throws -> (base: URL, file: URL) {
            let file = folder.appendingPathComponent(UUID().uuidString).appendingPathComponent("overrides.json")
            let store = FileOverrideStore(url: file)
            let service = LiveConfigurationService(
                catalog: try DemoConfiguration.makeCatalog(), overrideStore: store, overridePolicy: .allBuilds)
            var configuration = OFREPServer.Configuration(
                address: try HTTPSocket.Address(parsing: "127.0.0.1:0"), token: nil)
            configuration.requestsPerSecond = requestsPerSecond
            configuration.burst = burst
            let server = try OFREPServer(
                catalog: try DemoConfiguration.makeCatalog(), service: service, configuration: configuration,
                store: store)
            Thread { _ = server.run() }.start()
            let base = "http://\(server.address)"
            servers.withLock { $0.append((server, file, base)) }
            return (URL(string: base)!, file)
        }

        /// The file behind the server `store` talks to.
        func file(of store: any OverrideStore) -> URL? {
            servers.withLock { $0.first { $0.base == store.location }?.file }
        }

        func stopAll() {
            for entry in servers.withLock({ $0 }) { entry.server.stop() }
        }
    }

    /// Writes `json` as `key`'s entry into the store file at `url`, behind the server's back.
    static func writeRaw(_ json: String, forKey key: String, into url: URL) throws {
        let data = FileManager.default.contents(atPath: url.path)
        var document =
            try data.flatMap { try JSONSerialization.jsonObject(with: $0) as? [String: Any] }
            ?? ["format": "service-configuration-overrides", "version": 1]
        var overrides = document["overrides"] as? [String: Any] ?? [:]
        overrides[key] = try JSONSerialization.jsonObject(with: Data(json.utf8))
        document["overrides"] = overrides
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let written = try JSONSerialization.data(withJSONObject: document)
        let temporary = url.appendingPathExtension("tmp")
        _ = FileManager.default.createFile(
            atPath: temporary.path, contents: written, attributes: [.posixPermissions: 0o600])
        guard rename(temporary.path, url.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    // MARK: Conformance

    @Test("the conformance suite passes against a served file store; only history is skipped (the server keeps it)")
    func conformance() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let servers = InProcessServers(folder: folder)
        defer { servers.stopAll() }
        let backend = OverrideStoreConformance.Backend(
            name: "HTTPOverrideStore",
            makeStore: { try HTTPOverrideStore(url: try servers.start().base) },
            makeSecondInstance: { store in try HTTPOverrideStore(url: URL(string: store.location)!) },
            writeRawEntry: { store, key, json in
                try Self.writeRaw(json, forKey: key, into: servers.file(of: store)!)
            },
            limitsTotalSize: true)
        let report = await OverrideStoreConformance.run(backend)
        #expect(report.failures.isEmpty)
        #expect(report.skipped.map(\.check) == [.history], "\(report)")
        #expect(report.passed.count == OverrideStoreConformance.Check.allCases.count - 1)
    }

    @Test(
        "bounds: an OFREP body over 64 KiB is refused (413), a store's change of 2 MiB is taken, one over 8 MiB is not")
    func bodyBounds() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let servers = InProcessServers(folder: folder)
        defer { servers.stopAll() }
        let (base, _) = try servers.start()
        let transport = HTTPTransports.system()
        let evaluation = HTTPRequest(
            method: "POST", url: base.appendingPathComponent("ofrep/v1/evaluate/flags"),
            headers: [HTTPHeader("Content-Type", "application/json")],
            body: Array(#"{"context": {"pad": ""#.utf8) + Array(repeating: UInt8(ascii: "a"), count: 70_000)
                + Array(#""}}"#.utf8))
        #expect(try transport.fetch(evaluation, cancellation: nil).head.status == 413)

        let store = try HTTPOverrideStore(url: base)
        let large = String(repeating: "v", count: 1 << 20)
        try store.modify {
            $0["function.a.big"] = OverrideEntry(value: large)
            $0["function.b.big"] = OverrideEntry(value: large)
        }
        #expect(store.reload() == nil)
        #expect(store.entry(forKey: "function.b.big")?.value.count == 1 << 20)
        do {
            try store.modify { entries in
                for index in 0..<9 { entries["function.c.big\(index)"] = OverrideEntry(value: large) }
            }
            Issue.record("a change over 8 MiB was saved")
        } catch {
            #expect(error.kind == .limitExceeded, "\(error)")
        }
        #expect(store.reload() == nil)
        #expect(store.entries.count == 2)
    }

    @Test(
        "a corrupt file behind the server: the client's lastError says so, with the kind corrupt, and no override applies"
    )
    func corruptServedFile() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let servers = InProcessServers(folder: folder)
        defer { servers.stopAll() }
        let (base, file) = try servers.start()
        let store = try HTTPOverrideStore(url: base)
        try store.modify { $0[Self.like] = OverrideEntry(value: "Y") }
        #expect(store.lastError == nil)
        try Data("{not json".utf8).write(to: file)
        let error = try #require(store.reload())
        #expect(error.kind == .corrupt, "\(error)")
        #expect(error.description.contains("the served store:"), "\(error)")
        #expect(store.entries.isEmpty)
        #expect(store.lastError == error)
        // A change replaces it: the file store moves the corrupt file aside, and says so.
        try store.modify { $0[Self.like] = OverrideEntry(value: "N") }
        #expect(store.reload() == nil)
        #expect(store.entry(forKey: Self.like)?.value == "N")
        #expect(store.lastError?.preservedAt != nil, "\(store.lastError.map(String.init(describing:)) ?? "")")
        #expect(store.lastError?.description.contains("moved aside") == true)
    }

    @Test("a busy server (429 over its rate) is waited out as Retry-After says: no change fails for it")
    func busyServer() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let servers = InProcessServers(folder: folder)
        defer { servers.stopAll() }
        let (base, _) = try servers.start(requestsPerSecond: 20, burst: 2)
        let store = try HTTPOverrideStore(url: base)
        for index in 0..<15 {
            try store.modify { $0["function.busy.k\(index)"] = OverrideEntry(value: "Y") }
        }
        let reader = try HTTPOverrideStore(url: base)
        #expect(reader.reload() == nil)
        #expect(reader.entries.count == 15)
    }

    // MARK: Processes

    @Test(
        "two config-demo (--store http://, CONFIG_OVERRIDES_STORE=http://) see a set made through the server and one on its file; when serve dies they keep the values and say so"
    )
    func twoDemos() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let served = try await serve()
        defer { _ = served.process.stop(signal: SIGKILL) }
        let demos = [
            try DemoProcess(arguments: ["--store", served.base]),
            try DemoProcess(arguments: [], environment: ["CONFIG_OVERRIDES_STORE": served.base]),
        ]
        defer { for demo in demos { demo.child.signal(SIGKILL) } }
        for demo in demos {
            #expect(try await demo.wait(for: "config-demo: watching \(served.base)", within: 60), "\(demo.printed)")
        }
        let remote = try configMenu(["set", Self.typing, "4500", "--store", served.base])
        try #require(remote.status == 0, "\(remote.error)")
        for demo in demos {
            #expect(try await demo.wait(for: "-> 4500 (OVERRIDDEN)", within: 30), "\(demo.printed)")
        }
        let local = try configMenu(["set", Self.typing, "5500", "--store", file])
        try #require(local.status == 0, "\(local.error)")
        for demo in demos {
            #expect(try await demo.wait(for: "-> 5500 (OVERRIDDEN)", within: 30), "\(demo.printed)")
        }
        let get = try configMenu(["get", Self.typing, "--store", served.base])
        #expect(get.status == 0 && get.output.contains("5500"), "\(get.output)\(get.error)")
        // The served file store kept the history, naming the remote writer.
        let history = try configMenu(["history", "--store", file])
        #expect(history.output.contains("remote: cli"), "\(history.output)\(history.error)")

        _ = served.process.stop(signal: SIGKILL)
        for demo in demos {
            #expect(try await demo.wait(for: "store problem: live reload degraded", within: 30), "\(demo.printed)")
            #expect(demo.child.hasExited == false)
        }
    }

    @Test("writers racing through the served store lose no change")
    func racingWriters() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let served = try await serve()
        defer { _ = served.process.stop(signal: SIGKILL) }
        let stores = try (0..<2).map { _ in try HTTPOverrideStore(url: served.url) }
        let failures = Locked<[String]>([])
        await withTaskGroup(of: Void.self) { group in
            for (index, store) in stores.enumerated() {
                for thread in 0..<2 {
                    group.addTask {
                        for round in 0..<10 {
                            do {
                                try store.modify {
                                    $0["test.writer\(index).t\(thread).r\(round)"] = OverrideEntry(value: "Y")
                                }
                            } catch {
                                failures.withLock { $0.append("\(error)") }
                            }
                        }
                    }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        let reader = try HTTPOverrideStore(url: served.url)
        #expect(reader.reload() == nil)
        #expect(reader.entries.count == 40, "\(reader.entries.keys.sorted())")
        // Processes too: five config-menu set at once, each through the server.
        let runs = try await withThrowingTaskGroup(of: ToolRun.self) { group in
            for key in Self.toggles {
                group.addTask { try configMenu(["set", key, "Y", "--store", served.base]) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(runs.allSatisfy { $0.status == 0 }, "\(runs.map(\.error))")
        #expect(reader.reload() == nil)
        #expect(reader.entries.count == 45)
        #expect(Self.toggles.allSatisfy { reader.entry(forKey: $0)?.value == "Y" })
    }

    @Test("--read-only serves the store but refuses writes with 403, and the client says the server is read-only")
    func readOnly() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(try configMenu(["set", Self.like, "Y", "--store", file]).status == 0)
        let served = try await serve(["--read-only"])
        defer { _ = served.process.stop(signal: SIGKILL) }
        #expect(served.process.lines.joined().contains("read-only"))
        let store = try HTTPOverrideStore(url: served.url)
        #expect(store.reload() == nil)
        #expect(store.entry(forKey: Self.like)?.value == "Y")
        #expect(throws: OverrideStoreError.self) { try store.modify { $0[Self.like] = OverrideEntry(value: "N") } }
        let error = try #require(store.lastError)
        #expect(error.description.contains("the server is read-only"), "\(error)")
        #expect(error.description.contains("not saved"), "\(error)")
        let set = try configMenu(["set", Self.like, "N", "--store", served.base])
        #expect(set.status != 0)
        #expect(set.error.contains("read-only"), "\(set.error)")
        #expect(try configMenu(["get", Self.like, "--store", file]).output.contains("Y"))
    }

    @Test("a wrong or missing token is refused (401) with a message naming CONFIG_OVERRIDES_TOKEN")
    func badToken() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let tokenFile = folder.appendingPathComponent("token")
        let token = "0123456789abcdef0123456789abcdef"
        try Data((token + "\n").utf8).write(to: tokenFile)
        let served = try await serve(["--token-file", tokenFile.path])
        defer { _ = served.process.stop(signal: SIGKILL) }
        let wrong = try HTTPOverrideStore(url: served.url, token: "not-the-token-at-all", environment: [:])
        let error = try #require(wrong.reload())
        #expect(error.description.contains("refused the token"), "\(error)")
        #expect(error.description.contains("CONFIG_OVERRIDES_TOKEN"), "\(error)")
        let missing = try configMenu(
            ["set", Self.like, "Y", "--store", served.base], environment: .changing(["CONFIG_OVERRIDES_TOKEN": nil]))
        #expect(missing.status != 0 && missing.error.contains("refused the token"), "\(missing.error)")
        let right = try configMenu(
            ["set", Self.like, "Y", "--store", served.base], environment: .changing(["CONFIG_OVERRIDES_TOKEN": token]))
        #expect(right.status == 0, "\(right.error)")
        let store = try HTTPOverrideStore(url: served.url, environment: ["CONFIG_OVERRIDES_TOKEN": token])
        #expect(store.reload() == nil)
        #expect(store.entry(forKey: Self.like)?.value == "Y")
    }

    @Test(
        "a server that hangs: a change's outcome is unknown; one that dies: the overrides keep applying, writes fail, live reload is degraded"
    )
    func serverGoes() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let served = try await serve()
        defer { _ = served.process.stop(signal: SIGKILL) }
        let store = try HTTPOverrideStore(url: served.url, timeout: .seconds(2))
        let service = LiveConfigurationService(
            catalog: try DemoConfiguration.makeCatalog(), overrideStore: store, overridePolicy: .allBuilds)
        try store.modify { $0[Self.typing] = OverrideEntry(value: "4500") }
        #expect(service.resolution(forKeyNamed: Self.typing)?.value == "4500")
        #expect(store.liveReloadProblem == nil)
        // Another writer, seen live through the change stream.
        #expect(try configMenu(["set", Self.like, "Y", "--store", file]).status == 0)
        #expect(await poll(within: 30) { service.resolution(forKeyNamed: Self.like)?.value == "Y" })

        served.process.signal(SIGSTOP)
        do {
            try store.modify { $0[Self.typing] = OverrideEntry(value: "6500") }
            Issue.record("a change to a stopped server succeeded")
        } catch {
            #expect(error.kind == .outcomeUnknown, "\(error)")
            #expect(error.description.contains("may have been saved"), "\(error)")
        }
        served.process.signal(SIGCONT)
        _ = served.process.stop(signal: SIGKILL)

        #expect(await poll(within: 30) { store.liveReloadProblem != nil })
        #expect(store.liveReloadProblem?.contains("not arriving") == true, "\(store.liveReloadProblem ?? "")")
        #expect(service.resolution(forKeyNamed: Self.like)?.value == "Y", "the last overrides keep applying")
        do {
            try store.modify { $0[Self.like] = OverrideEntry(value: "N") }
            Issue.record("a change to a dead server succeeded")
        } catch {
            #expect(error.kind == .io, "\(error)")
            #expect(error.description.contains("not saved"), "\(error)")
            #expect(error.description.contains(served.base), "\(error)")
        }
        #expect(store.lastError != nil)
        #expect(service.resolution(forKeyNamed: Self.like)?.value == "Y")
    }

    @Test("https:// through a TLS proxy: the CA file from CONFIG_OVERRIDES_CA_FILE is trusted, changes arrive live")
    func https() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let served = try await serve()
        defer { _ = served.process.stop(signal: SIGKILL) }
        let pair = try TestCertificates.selfSigned(in: folder)
        let proxy = try ChildProcess(
            "/usr/bin/python3",
            [
                ServeCommandTests.fixtures.appendingPathComponent("tls_proxy.py").path, String(served.port),
                pair.certificate.path, pair.key.path,
            ])
        defer { _ = proxy.stop(signal: SIGKILL) }
        let port = try #require(proxy.line(startingWith: "", within: 30).flatMap { Int($0) }, "\(proxy.printed)")
        let url = URL(string: "https://127.0.0.1:\(port)")!

        let untrusted = try HTTPOverrideStore(url: url, environment: [:])
        let refused = try #require(untrusted.reload())
        #expect(refused.description.contains("cannot read the overrides"), "\(refused)")

        let store = try HTTPOverrideStore(
            url: url, environment: [HTTPOverrideStore.certificateAuthorityEnvironmentVariable: pair.certificate.path])
        let service = LiveConfigurationService(
            catalog: try DemoConfiguration.makeCatalog(), overrideStore: store, overridePolicy: .allBuilds)
        #expect(store.lastError == nil, "\(store.lastError.map(String.init(describing:)) ?? "")")
        try store.modify { $0[Self.typing] = OverrideEntry(value: "4500") }
        #expect(try configMenu(["get", Self.typing, "--store", file]).output.contains("4500"))
        #expect(try configMenu(["set", Self.like, "Y", "--store", file]).status == 0)
        #expect(await poll(within: 30) { service.resolution(forKeyNamed: Self.like)?.value == "Y" })
    }

    @Test("store locations: http:// and https:// are stores, look-alikes are refused with the forms")
    func locations() throws {
        #expect(OverrideStores.problem(withLocation: "http://127.0.0.1:8016") == nil)
        #expect(OverrideStores.problem(withLocation: "https://qa.example:8443") == nil)
        #expect(try OverrideStores.store(for: "http://127.0.0.1:8016") is HTTPOverrideStore)
        let problem = try #require(OverrideStores.problem(withLocation: "htp://127.0.0.1:8016"))
        #expect(problem.contains("http://HOST:PORT"), "\(problem)")
        let withPath = try #require(OverrideStores.problem(withLocation: "http://127.0.0.1:8016/overrides.json"))
        #expect(withPath.contains("without a path"), "\(withPath)")
        #expect(throws: OverrideStoreError.self) { _ = try HTTPOverrideStore(url: URL(string: "ftp://x")!) }
        let store = try HTTPOverrideStore(url: URL(string: "http://user:pw@127.0.0.1:1/")!)
        #expect(store.location == "http://127.0.0.1:1")
    }
}

/// The store routes' answers, without sockets: revisions, compare-and-set, refusals.
@Suite("serve's store routes: revision, compare-and-set, refusals")
struct StoreEndpointTests {
    func request(_ method: String, _ path: String, ifMatch: String? = nil, body: String = "") -> HTTPServerRequest {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: h"
        if let ifMatch { head += "\r\nIf-Match: \(ifMatch)" }
        var (request, _) = try! HTTPServerRequest.parseHead(Array(head.utf8)[...])
        request.body = Array(body.utf8)
        return request
    }

    func json(_ response: HTTPServerResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    @Test("GET gives the entries as the file holds them and their revision; POST needs it, 412 on a stale one")
    func compareAndSet() throws {
        let store = InMemoryOverrideStore(entries: ["a.b": OverrideEntry(value: "Y", note: "QA 12")])
        let endpoint = StoreEndpoint(store: store, readOnly: false)
        let read = endpoint.respond(to: request("GET", StoreEndpoint.overridesPath))
        #expect(read.status == 200)
        let first = try json(read)
        let revision = try #require(first["revision"] as? String)
        #expect(read.headers.contains { $0.name == "ETag" && $0.value == "\"\(revision)\"" })
        let entries = try #require(first["entries"] as? [String: [String: Any]])
        #expect(entries["a.b"]?["value"] as? String == "Y")
        #expect(entries["a.b"]?["note"] as? String == "QA 12")

        let change =
            #"{"entries": {"a.b": {"value": "N"}, "c.d": {"value": "1", "newField": [1]}}, "reason": {"action": "set", "origin": "phone"}}"#
        #expect(endpoint.respond(to: request("POST", StoreEndpoint.overridesPath, body: change)).status == 428)
        let saved = endpoint.respond(
            to: request("POST", StoreEndpoint.overridesPath, ifMatch: "\"\(revision)\"", body: change))
        #expect(saved.status == 200, "\(String(decoding: saved.body, as: UTF8.self))")
        #expect(store.entry(forKey: "a.b")?.value == "N")
        #expect(store.entry(forKey: "c.d")?.preservedFields["newField"] == "[1]")
        #expect(store.history().records.last?.reason.detail == "remote: phone")
        let newRevision = try #require(try json(saved)["revision"] as? String)
        #expect(newRevision != revision)

        let stale = endpoint.respond(to: request("POST", StoreEndpoint.overridesPath, ifMatch: revision, body: change))
        #expect(stale.status == 412)
        #expect(try json(stale)["revision"] as? String == newRevision, "412 carries the current state")
        #expect(store.entries.count == 2)

        let broken = endpoint.respond(
            to: request("POST", StoreEndpoint.overridesPath, ifMatch: newRevision, body: #"{"entries": {"x": 1}}"#))
        #expect(broken.status == 400)
        #expect(endpoint.respond(to: request("DELETE", StoreEndpoint.overridesPath)).status == 405)
        let removed = endpoint.respond(to: request("POST", StoreEndpoint.overridesPath, body: #"{"remove": "a.b"}"#))
        #expect(removed.status == 200)
        #expect(store.entries.keys.sorted() == ["c.d"])
        #expect(try json(removed)["problems"] as? [Any] != nil)
        #expect(
            endpoint.respond(to: request("POST", StoreEndpoint.overridesPath, body: #"{"removeAll": true}"#)).status
                == 200)
        #expect(store.entries.isEmpty)
        #expect(endpoint.respond(to: request("GET", "/store/v1/overrides.json")).status == 404)
        #expect(endpoint.respond(to: request("GET", "/store/v1/../../etc/passwd")).status == 404)
    }

    @Test("read-only: reads are served, every change is refused with 403 and a message saying so")
    func readOnly() throws {
        let store = InMemoryOverrideStore(entries: ["a.b": OverrideEntry(value: "Y")])
        let endpoint = StoreEndpoint(store: store, readOnly: true)
        let read = endpoint.respond(to: request("GET", StoreEndpoint.overridesPath))
        #expect(read.status == 200)
        let revision = try #require(try json(read)["revision"] as? String)
        let refused = endpoint.respond(
            to: request("POST", StoreEndpoint.overridesPath, ifMatch: revision, body: #"{"entries": {}}"#))
        #expect(refused.status == 403)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("read-only"))
        #expect(store.entries.count == 1)
    }
}
