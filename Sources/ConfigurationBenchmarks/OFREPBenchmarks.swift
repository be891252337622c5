import DemoConfiguration
import Foundation
import ServiceConfiguration

/// The OFREP test fixture (Python's standard library): answers `POST /ofrep/v1/evaluate/flags` with `folder/body`, an
/// ETag, and 304 to a matching `If-None-Match`.
let ofrepFixtureScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Tests/ServiceConfigurationTests/Fixtures/OFREPServer/ofrep_fixture.py")
    .standardizedFileURL

/// fast-feature from the repository's `.venv/ofrep` (scripts/setup-debian), on a free loopback port.
final class FastFeatureServer {
    let port: Int
    private let process = Process()

    static let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../.venv/ofrep/bin/fast-feature").standardizedFileURL.path

    init() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binary) else {
            throw BenchmarkError("\(Self.binary) is missing (scripts/setup-debian installs it)")
        }
        port = freeLoopbackPort()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["serve", "--host", "127.0.0.1", "--port", String(port)]
        var environment = ProcessInfo.processInfo.environment
        environment["FAST_FEATURE_ADMIN"] = "true"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if (try? request("GET", "/admin/api/flags", nil)) == 200 { return }
            usleep(50_000)
        }
        throw BenchmarkError("fast-feature did not start on port \(port)")
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// One admin request; returns the status.
    @discardableResult
    func request(_ method: String, _ path: String, _ body: Any?) throws -> Int {
        let request = HTTPRequest(
            method: method, url: URL(string: "http://127.0.0.1:\(port)\(path)")!,
            headers: [HTTPHeader("Content-Type", "application/json")],
            body: try body.map { [UInt8](try JSONSerialization.data(withJSONObject: $0)) } ?? [],
            timeout: .seconds(10), maximumBodySize: 64 << 20)
        return try HTTPTransports.system().fetch(request, cancellation: nil).head.status
    }
}

/// A loopback port nothing listens on (bound to port 0, then closed).
func freeLoopbackPort() -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// The typed OFREP value a key's wire string stands for: a boolean for a toggle, a number for a number, the JSON for
/// a JSON key, else the string.
func typedValue(_ wire: String, of descriptor: ConfigurationKeyDescriptor) -> Any {
    switch descriptor.control {
    case .toggle: return wire == descriptor.toggleStrings.on
    case .number(.integer, _): return Int(wire) ?? wire
    case .number: return Double(wire) ?? wire
    case .json: return (try? JSONSerialization.jsonObject(with: Data(wire.utf8), options: [.fragmentsAllowed])) ?? wire
    default: return wire
    }
}

/// A bulk evaluation of 5,000 keys through the OFREP source against the same through the HTTP source, in one run: the
/// same values (typed for OFREP, with a variant and a reason per flag), each from a Python standard-library server on
/// loopback; and the OFREP source against a real OFREP server (fast-feature) evaluating 5,000 flags.
func ofrepBenchmarks() throws {
    let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
        "config-benchmarks-ofrep-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    let (httpFolder, ofrepFolder) = (folder.appendingPathComponent("http"), folder.appendingPathComponent("ofrep"))
    for created in [httpFolder, ofrepFolder] {
        try FileManager.default.createDirectory(at: created, withIntermediateDirectories: true)
    }
    let (catalog, _) = try DemoConfiguration.synthetic(keys: 5000, scopes: 50)
    let first = Dictionary(uniqueKeysWithValues: catalog.keys.map { ($0.name, $0.defaultValueString ?? "x") })
    let second = alternate(first)
    func ofrepBody(_ values: [String: String]) throws -> Data {
        let flags = catalog.keys.map { descriptor -> [String: Any] in
            [
                "key": descriptor.name, "value": typedValue(values[descriptor.name]!, of: descriptor),
                "variant": "v", "reason": "STATIC",
            ]
        }
        return try JSONSerialization.data(withJSONObject: ["flags": flags])
    }
    let httpServer = try BenchmarkServer(folder: httpFolder)
    let ofrepServer = try BenchmarkServer(folder: ofrepFolder, script: ofrepFixtureScript)
    func serveOFREP(_ values: [String: String]) throws {
        try ofrepBody(values).write(to: ofrepFolder.appendingPathComponent("body"), options: .atomic)
    }

    let http = HTTPServerValuesSource(url: httpServer.url)
    let ofrep = OFREPServerValuesSource(
        baseURL: URL(string: "http://127.0.0.1:\(ofrepServer.port)")!,
        context: OFREPEvaluationContext(targetingKey: "bench", attributes: ["country": "JP"]), catalog: catalog)
    // Both sources produce the same wire strings for the same values.
    try httpServer.serve(first)
    try serveOFREP(first)
    let checked = blocking {
        (
            try? await http.fetch(ifChangedSince: .init()).values,
            try? await ofrep.fetch(ifChangedSince: .init()).values
        )
    }
    precondition(checked.0 == first, "the HTTP source did not bring the 5,000 values")
    precondition(
        checked.1 == first,
        "the OFREP source did not bring the same 5,000 wire strings: "
            + (checked.1.map { got in "\(Array(first.filter { got[$0.key] != $0.value }.prefix(3)))" } ?? "none"))

    print("")
    print("OFREP bulk evaluation against the HTTP source, 5,000 keys (release build; loopback; Python fixture servers)")
    print("")
    print("| operation | median | p90 | note |")
    print("|---|---:|---:|---|")
    let line = medianRow
    // Interleaved, so load that comes and goes falls on both.
    var full: [String: [Double]] = ["http": [], "ofrep": []]
    var notModified: [String: [Double]] = ["http": [], "ofrep": []]
    let syncs: [(String, ServerValuesSync)] = [
        (
            "http",
            ServerValuesSync(
                source: http, service: LiveConfigurationService(catalog: catalog),
                snapshotURL: folder.appendingPathComponent("http-snapshot.json"), environment: .live)
        ),
        (
            "ofrep",
            ServerValuesSync(
                source: ofrep, service: LiveConfigurationService(catalog: catalog),
                snapshotURL: folder.appendingPathComponent("ofrep-snapshot.json"), environment: .live)
        ),
    ]
    for round in 0..<30 {
        let values = round % 2 == 0 ? second : first
        try httpServer.serve(values)
        try serveOFREP(values)
        for (name, sync) in syncs {
            let start = nanoseconds()
            let outcome = blocking { await sync.sync() }
            full[name]!.append(Double(nanoseconds() - start) / 1e6)
            guard case .updated(let previous) = outcome, previous.count == 5000 || round == 0 else {
                preconditionFailure("\(name): expected a 200 changing 5,000 keys, got \(outcome)")
            }
        }
        for (name, sync) in syncs {
            let start = nanoseconds()
            let outcome = blocking { await sync.sync() }
            notModified[name]!.append(Double(nanoseconds() - start) / 1e6)
            precondition(outcome == .notModified, "\(name): expected a 304, got \(outcome)")
        }
    }
    let httpBody = try JSONSerialization.data(withJSONObject: first)
    let ofrepBytes = [UInt8](try ofrepBody(first))
    line(
        "HTTP source: sync, 200 with 5,000 keys", full["http"]!,
        "\(httpBody.count / 1024) KiB JSON object of strings: fetch, parse, apply, persist")
    line(
        "OFREP source: sync, 200 with 5,000 flags", full["ofrep"]!,
        "\(ofrepBytes.count / 1024) KiB bulk evaluation (typed values, variant, reason): fetch, parse, convert, "
            + "apply, persist (with the evaluations)")
    line("HTTP source: sync, 304", notModified["http"]!, "conditional GET, snapshot rewrite")
    line("OFREP source: sync, 304", notModified["ofrep"]!, "conditional POST, snapshot rewrite")
    let parseHTTP = timePerCall(iterations: 30) { blackHole(try? ServerValuesFormat.json.decode(httpBody)) }
    let parseOFREP = timePerCall(iterations: 30) { blackHole(try? ofrep.decode(ofrepBytes)) }
    print(String(format: "| parse: 5,000 strings (HTTP format) | %.2f ms | | |", parseHTTP / 1e6))
    print(
        String(
            format: "| parse and convert: 5,000 OFREP flags through the keys' codecs | %.2f ms | | |", parseOFREP / 1e6)
    )

    // A real OFREP server: fast-feature evaluating 5,000 flags per request (its own time is inside the figure).
    do {
        let fastFeature = try FastFeatureServer()
        for descriptor in catalog.keys {
            let status = try fastFeature.request(
                "POST", "/admin/api/flags",
                [
                    "key": descriptor.name, "default_variant": "v",
                    "variants": ["v": typedValue(first[descriptor.name]!, of: descriptor)],
                ])
            precondition(status == 201, "fast-feature refused \(descriptor.name): HTTP \(status)")
        }
        let source = OFREPServerValuesSource(
            baseURL: fastFeature.baseURL,
            context: OFREPEvaluationContext(targetingKey: "bench", attributes: ["country": "JP"]), catalog: catalog,
            timeout: .seconds(60))
        var evaluated: [Double] = []
        var unchanged: [Double] = []
        for _ in 0..<10 {
            var start = nanoseconds()
            let fetched = blocking { try? await source.fetch(ifChangedSince: .init()) }
            evaluated.append(Double(nanoseconds() - start) / 1e6)
            precondition(fetched?.values == first, "fast-feature did not bring the 5,000 values")
            start = nanoseconds()
            let again = blocking { try? await source.fetch(ifChangedSince: fetched!.validators) }
            unchanged.append(Double(nanoseconds() - start) / 1e6)
            precondition(again == .notModified(validators: fetched!.validators), "expected a 304 from fast-feature")
        }
        line("OFREP source, fast-feature: fetch, 200", evaluated, "fast-feature evaluates 5,000 flags per request")
        line("OFREP source, fast-feature: fetch, 304", unchanged, "it evaluates them all to compute the ETag too")
    } catch let error as BenchmarkError {
        print("| fast-feature | skipped: \(error) | | |")
    }
}

/// Prints one table row of timings in milliseconds: `| name | median | p90 | note |`.
func medianRow(_ name: String, _ values: [Double], _ note: String) {
    let sorted = values.sorted()
    print(String(format: "| %@ | %.2f ms | %.2f ms | %@ |", name, median(values), sorted[sorted.count * 9 / 10], note))
}
