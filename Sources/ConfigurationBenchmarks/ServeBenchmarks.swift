import ConfigurationServer
import DemoConfiguration
import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore

/// `config-menu serve` as an OFREP server, in-process on a free loopback port: a bulk evaluation of 5,000 keys
/// through the OFREP source (to compare with the Python fixture's figures printed just before, same run), and the
/// time from a `set` in another process to a client following the change stream, beside the time the served store
/// itself hears it (inotify), from the same writes.
func serveBenchmarks() throws {
    let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
        "config-benchmarks-serve-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let (catalog, _) = try DemoConfiguration.synthetic(keys: 5000, scopes: 50)
    let first = Dictionary(uniqueKeysWithValues: catalog.keys.map { ($0.name, $0.defaultValueString ?? "x") })
    let storeURL = folder.appendingPathComponent("overrides.json")
    let service = LiveConfigurationService(
        serverValues: first, catalog: catalog, overrideStore: FileOverrideStore(url: storeURL),
        watchMode: .inotify, overridePolicy: .allBuilds)
    let server = try OFREPServer(
        catalog: catalog, service: service,
        configuration: .init(address: try HTTPSocket.Address(parsing: "127.0.0.1:0"), token: nil))
    Thread { _ = server.run() }.start()
    defer { server.stop() }
    let source = OFREPServerValuesSource(
        baseURL: URL(string: "http://\(server.address)")!, catalog: catalog, timeout: .seconds(30))

    print("")
    print("config-menu serve as the OFREP server, 5,000 keys (release build; in-process server on loopback)")
    print("")
    print("| operation | median | p90 | note |")
    print("|---|---:|---:|---|")
    let line = medianRow
    var full: [Double] = []
    var unchanged: [Double] = []
    for _ in 0..<30 {
        var start = nanoseconds()
        let fetched = blocking { try? await source.fetch(ifChangedSince: .init()) }
        full.append(Double(nanoseconds() - start) / 1e6)
        guard let fetched, fetched.values?.count == 5000 else { throw BenchmarkError("serve did not bring 5,000 keys") }
        let validators = fetched.validators
        start = nanoseconds()
        let again = blocking { try? await source.fetch(ifChangedSince: validators) }
        unchanged.append(Double(nanoseconds() - start) / 1e6)
        guard again == .notModified(validators: validators) else { throw BenchmarkError("expected a 304 from serve") }
    }
    line("OFREP source from serve: fetch, 200 with 5,000 flags", full, "serve resolves and writes them once per change")
    line("OFREP source from serve: fetch, 304", unchanged, "the ETag of the values last written")

    // From a write by another process to: the served store's own change callback (inotify), and a client of the
    // change stream (this package's OFREP source waiting for a change).
    let heard = Locked<[String: UInt64]>([:])
    let observation = service.observe { names in
        let now = nanoseconds()
        heard.withLock { for name in names where $0[name] == nil { $0[name] = now } }
    }
    defer { observation.cancel() }
    var store: [Double] = []
    var stream: [Double] = []
    let (warmUp, rounds) = (2, 20)
    // Bool keys: every write changes the effective value (a value a key rejects would change nothing to announce).
    let toggles = catalog.keys.filter { if case .toggle = $0.control { true } else { false } }
    for round in 0..<(warmUp + rounds) {
        let key = toggles[round].name
        let current = blocking { try? await source.fetch(ifChangedSince: .init()) }
        guard let current else { throw BenchmarkError("serve did not answer in round \(round)") }
        let streamed = Locked<UInt64?>(nil)
        let waiting = DispatchSemaphore(value: 0)
        let known = current.validators
        Thread {
            _ = blocking { try? await source.waitForChange(after: known) }
            streamed.withLock { $0 = nanoseconds() }
            waiting.signal()
        }.start()
        usleep(200_000)  // the stream is open before the write
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let descriptor = toggles[round]
        let value =
            first[key] == descriptor.toggleStrings.on ? descriptor.toggleStrings.off : descriptor.toggleStrings.on
        writer.arguments = ["--store-writer", storeURL.path, key, value]
        let output = Pipe()
        writer.standardOutput = output
        try writer.run()
        let stamps = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(whereSeparator: \.isWhitespace).compactMap { UInt64($0) }
        writer.waitUntilExit()
        guard stamps.count == 2 else { throw BenchmarkError("the store writer failed in round \(round)") }
        guard waiting.wait(timeout: .now() + 10) == .success, let arrived = streamed.withLock({ $0 }),
            let noticed = heard.withLock({ $0[key] })
        else { throw BenchmarkError("no change arrived in round \(round)") }
        guard round >= warmUp else { continue }
        store.append(Double(Int64(noticed) - Int64(stamps[0])) / 1e6)
        stream.append(Double(Int64(arrived) - Int64(stamps[0])) / 1e6)
    }
    line("`set` in another process -> the served store hears it (inotify)", store, "the baseline: a local program")
    line(
        "`set` in another process -> a change-stream client returns", stream,
        "serve resolves 5,000 keys, writes the event; the client reads it")
}
