import DemoConfiguration
import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The sync tests' HTTP server (Python's standard library, HTTP/1.1 with keep-alive, ETag and Last-Modified) on
/// a loopback port, serving `folder/values.json`.
final class BenchmarkServer {
    let folder: URL
    let port: Int
    private let process = Process()
    private let input = Pipe()

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Tests/ServiceConfigurationTests/Fixtures/SyncServer/sync_server.py")
        .standardizedFileURL

    init(folder: URL, script: URL = BenchmarkServer.script) throws {
        self.folder = folder
        let system = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
        process.executableURL = URL(fileURLWithPath: system ? "/usr/bin/python3" : "/usr/bin/env")
        process.arguments = (system ? [] : ["python3"]) + ["-I", "-S", script.path, folder.path]
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5).prefix { $0.isNumber }) else {
            throw ConfigurationError.invalidValue(
                key: "server", value: text, reason: "the benchmark server did not start")
        }
        self.port = port
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/values.json")! }

    func serve(_ values: [String: String]) throws {
        try JSONSerialization.data(withJSONObject: values).write(
            to: folder.appendingPathComponent("values.json"), options: .atomic)
    }
}

/// Runs `body` to completion from synchronous code.
func blocking<Result: Sendable>(_ body: @escaping @Sendable () async -> Result) -> Result {
    let result = Mutex<Result?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let value = await body()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return result.withLock { $0! }
}

/// The values with every one changed: Y/N flipped, numbers plus one, other text extended.
func alternate(_ values: [String: String]) -> [String: String] {
    values.mapValues { value in
        if value == "Y" { return "N" }
        if value == "N" { return "Y" }
        if let number = Int(value) { return String(number + 1) }
        return value + "x"
    }
}

/// A 304 round trip and a 5,000-key 200 (parse, apply, persist) on loopback; peak memory at 5,000 keys and when a
/// 50 MB body is refused.
func syncBenchmarks() throws {
    let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
        "config-benchmarks-sync-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let served = folder.appendingPathComponent("served")
    try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
    let server = try BenchmarkServer(folder: served)
    let (catalog, _) = try DemoConfiguration.synthetic(keys: 5000, scopes: 50)
    // A value for every key (the synthetic server values cover a third): the defaults, then each one changed.
    let first = Dictionary(uniqueKeysWithValues: catalog.keys.map { ($0.name, $0.defaultValueString ?? "x") })
    let second = alternate(first)
    let body = try JSONSerialization.data(withJSONObject: first)
    print("")
    // `libcurl/7.88.1` (without the libraries it was built with), or `URLSession`.
    let transportName = HTTPTransports.systemName.split(separator: " ").first.map(String.init) ?? "transport"
    print("Server values sync (release build; loopback; Python fixture server; \(transportName))")
    print("")

    // 304: a sync whose conditional request the server answers "not modified".
    let service = LiveConfigurationService(catalog: catalog)
    let snapshotURL = folder.appendingPathComponent("server-snapshot.json")
    let sync = ServerValuesSync(
        source: HTTPServerValuesSource(url: server.url), service: service, snapshotURL: snapshotURL,
        environment: .live)
    try server.serve(first)
    precondition(blocking { await sync.sync() } != .notModified)
    var notModified: [Double] = []
    for _ in 0..<300 {
        let start = nanoseconds()
        let outcome = blocking { await sync.sync() }
        notModified.append(Double(nanoseconds() - start) / 1e6)
        precondition(outcome == .notModified, "expected a 304, got \(outcome)")
    }
    // The same without a snapshot: what the snapshot rewrite (with its fsyncs) costs a 304.
    let unsaved = ServerValuesSync(
        source: HTTPServerValuesSource(url: server.url), service: LiveConfigurationService(catalog: catalog),
        snapshotURL: nil, environment: .live)
    precondition(blocking { await unsaved.sync() } != .notModified)
    var notModifiedUnsaved: [Double] = []
    for _ in 0..<300 {
        let start = nanoseconds()
        let outcome = blocking { await unsaved.sync() }
        notModifiedUnsaved.append(Double(nanoseconds() - start) / 1e6)
        precondition(outcome == .notModified, "expected a 304, got \(outcome)")
    }
    // The same request with the HTTP transport alone (no sync: no status, no snapshot write, no thread hop), for the
    // cost of the sync.
    let transport = HTTPTransports.system()
    let request = HTTPRequest(
        url: server.url, headers: [HTTPHeader("If-None-Match", sync.status.validators.etag ?? "")],
        acceptsCompression: true)
    var bare: [Double] = []
    for _ in 0..<300 {
        let start = nanoseconds()
        let status = (try? transport.fetch(request, cancellation: nil))?.head.status ?? 0
        bare.append(Double(nanoseconds() - start) / 1e6)
        precondition(status == 304, "expected a 304, got \(status)")
    }
    #if canImport(FoundationNetworking)
        // Linux's URLSession, which the transport replaced there (it crashes on chunked trailers, not on this 304),
        // on the same request: what the change of transport costs or saves.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration)
        var urlRequest = URLRequest(url: server.url)
        urlRequest.setValue(sync.status.validators.etag, forHTTPHeaderField: "If-None-Match")
        var foundation: [Double] = []
        for _ in 0..<300 {
            let start = nanoseconds()
            let status = blocking { [urlRequest] in
                ((try? await session.data(for: urlRequest))?.1 as? HTTPURLResponse)?.statusCode ?? 0
            }
            foundation.append(Double(nanoseconds() - start) / 1e6)
            precondition(status == 304, "expected a 304, got \(status)")
        }
    #endif

    // 200 with 5,000 keys, every value changed: fetch, parse, one updateServerValues, snapshot write.
    var full: [Double] = []
    for round in 0..<30 {
        try server.serve(round % 2 == 0 ? second : first)
        let start = nanoseconds()
        let outcome = blocking { await sync.sync() }
        full.append(Double(nanoseconds() - start) / 1e6)
        guard case .updated(let previous) = outcome, previous.count == 5000 else {
            preconditionFailure("expected a 200 changing 5,000 keys, got \(outcome)")
        }
    }
    // Its parts, alone.
    let parse = timePerCall(iterations: 30) { blackHole(try? ServerValuesFormat.json.decode(body)) }
    var flip = false
    let apply = timePerCall(iterations: 30) {
        flip.toggle()
        service.updateServerValues(flip ? first : second)
    }
    let snapshotSize = (try? FileManager.default.attributesOfItem(atPath: snapshotURL.path)[.size] as? Int) ?? 0

    print("| operation | median | p90 | note |")
    print("|---|---:|---:|---|")
    func line(_ name: String, _ values: [Double], _ note: String) {
        let sorted = values.sorted()
        print(
            String(
                format: "| %@ | %.2f ms | %.2f ms | %@ |", name, median(values), sorted[sorted.count * 9 / 10], note))
    }
    line("sync, 304 Not Modified", notModified, "conditional GET (ETag), status update, snapshot rewrite")
    line("sync, 304, no snapshot", notModifiedUnsaved, "the same without the snapshot rewrite")
    line("\(transportName) alone, same 304", bare, "the floor: client and Python server")
    #if canImport(FoundationNetworking)
        line("URLSession alone, same 304", foundation, "for comparison: Linux's URLSession, which libcurl replaced")
    #endif
    line(
        "sync, 200 with 5,000 keys (all changed)", full,
        "\(body.count / 1024) KiB body: fetch, parse, apply, persist (\(snapshotSize / 1024) KiB snapshot)")
    print(String(format: "| parse 5,000 keys (strict JSON) | %.2f ms | | |", parse / 1e6))
    print(
        String(
            format: "| apply: one updateServerValues, 5,000 changed | %.2f ms | | catalog of 5,000 keys |", apply / 1e6)
    )
    print("")
    print(
        String(
            format: "On a 304: the sync machinery costs %.2f ms over the transport alone; the snapshot rewrite %.2f ms",
            median(notModifiedUnsaved) - median(bare), median(notModified) - median(notModifiedUnsaved)))

    // Peak memory, each in a fresh process.
    print("")
    print("| memory (fresh process, 5,000-key catalog and service) | RSS before the sync | peak during it | growth |")
    print("|---|---:|---:|---:|")
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).path
    for (mode, label, url) in [
        ("keys", "a 5,000-key 200: fetch, parse, apply, persist", server.url),
        ("huge", "a 50 MB body, refused (limit 10 MiB)", URL(string: "http://127.0.0.1:\(server.port)/mode/huge")!),
    ] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--sync-memory", mode, url.absoluteString, folder.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let numbers = text.split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard numbers.count == 2 else {
            print("| \(label) | failed: \(text) | | |")
            continue
        }
        print(
            String(
                format: "| %@ | %.1f MiB | %.1f MiB | %.1f MiB |", label, numbers[0], numbers[1],
                numbers[1] - numbers[0]))
    }
}

/// A field of `/proc/self/status` in MiB (`VmRSS`: now, `VmHWM`: the peak), or -1 where there is none.
func procStatusMiB(_ field: String) -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
        let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
    else { return -1 }
    return kilobytes / 1024
}

/// The child process of the memory benchmark: prints the resident set before one sync and its peak during it
/// (the peak is reset first through `/proc/self/clear_refs`, so what the set-up cost does not count).
func syncMemoryChild(_ arguments: [String]) throws {
    let (catalog, _) = try DemoConfiguration.synthetic(keys: 5000, scopes: 50)
    let service = LiveConfigurationService(catalog: catalog)
    let sync = ServerValuesSync(
        source: HTTPServerValuesSource(url: URL(string: arguments[1])!), service: service,
        snapshotURL: URL(fileURLWithPath: arguments[2]).appendingPathComponent("memory-\(arguments[0]).json"),
        environment: .live)
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    let before = procStatusMiB("VmRSS")
    let outcome = blocking { await sync.sync() }
    if arguments[0] == "huge" {
        precondition(outcome.error?.kind == .tooLarge, "expected the 50 MB body refused, got \(outcome)")
    } else {
        precondition(service.serverValues.count == 5000, "expected 5,000 keys, got \(outcome)")
    }
    print(before, procStatusMiB("VmHWM"))
}
