import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore

#if canImport(Glibc)
    import Glibc
#endif

/// An etcd for the benchmark: `$ETCD_BENCH_URL` (an `etcd://HOST:PORT` of your own), else `/usr/bin/etcd` started on
/// free loopback ports with a temporary data folder, stopped at the end.
///
/// etcd runs under a small shell that waits on its standard input, a pipe from this process: when the benchmark
/// ends in any way (done, an error, a crash, `kill -9`) the pipe closes and the shell kills etcd and removes its data,
/// as the tests' fixture does, so no etcd outlives the run.
final class BenchmarkEtcd {
    let address: String
    private let process: Process?
    private let input: Pipe?
    private let folder: URL?

    init() throws {
        if let given = ProcessInfo.processInfo.environment["ETCD_BENCH_URL"], !given.isEmpty {
            address = given.hasSuffix("/") ? String(given.dropLast()) : given
            (process, input, folder) = (nil, nil, nil)
            return
        }
        guard
            let binary = ["/usr/bin/etcd", "/usr/local/bin/etcd"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            throw BenchmarkError("no etcd: install etcd-server (scripts/setup-debian) or set ETCD_BENCH_URL")
        }
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "config-benchmarks-etcd-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (client, peer) = (Self.freePort(), Self.freePort())
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // etcd in the background; `read` returns when this process's end of the pipe closes; then etcd is killed.
        process.arguments = [
            "-c",
            #"etcd="$1"; shift; "$etcd" "$@" > "$ETCD_LOG" 2>&1 & pid=$!; read _; kill $pid; wait $pid; rm -rf "$ETCD_FOLDER""#,
            "sh", binary,
            "--name", "bench", "--data-dir", folder.appendingPathComponent("data").path,
            "--listen-client-urls", "http://127.0.0.1:\(client)", "--advertise-client-urls",
            "http://127.0.0.1:\(client)",
            "--listen-peer-urls", "http://127.0.0.1:\(peer)", "--initial-advertise-peer-urls",
            "http://127.0.0.1:\(peer)",
            "--initial-cluster", "bench=http://127.0.0.1:\(peer)",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["ETCD_LOG"] = folder.appendingPathComponent("etcd.log").path
        environment["ETCD_FOLDER"] = folder.path
        process.environment = environment
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        (self.process, self.input, self.folder) = (process, input, folder)
        address = "etcd://127.0.0.1:\(client)"
        // Ready when a read succeeds.
        let probe = try EtcdOverrideStore(url: URL(string: address + "/bench/probe")!, timeout: .seconds(1))
        let deadline = Date().addingTimeInterval(20)
        while probe.reload() != nil {
            guard Date() < deadline, process.isRunning else {
                let log = (try? String(contentsOf: folder.appendingPathComponent("etcd.log"), encoding: .utf8)) ?? ""
                throw BenchmarkError("etcd did not start on port \(client):\n\(log.suffix(2_000))")
            }
            usleep(50_000)
        }
    }

    deinit {
        try? input?.fileHandleForWriting.close()
        process?.waitUntilExit()
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    private static func freePort() -> Int {
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
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The other process of the etcd benchmark: the time its change started and returned, then the change.
func etcdWriterChild(_ arguments: [String]) throws {
    let store = try EtcdOverrideStore(url: URL(string: arguments[0])!)
    let started = nanoseconds()
    try store.modify { $0[arguments[1]] = OverrideEntry(value: arguments[2]) }
    print(started, nanoseconds())
}

/// From a `set` in one process to the change callback in another: through etcd (a transaction, then the watch),
/// and through a file (an atomic replace, then inotify), in alternating rounds of the same run.
func etcdBenchmarks() throws {
    let etcd = try BenchmarkEtcd()
    let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("config-benchmarks-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    let prefix = "/bench/\(getpid())"
    let etcdURL = etcd.address + prefix
    let fileURL = folder.appendingPathComponent("live/overrides.json")
    let etcdStore = try EtcdOverrideStore(url: URL(string: etcdURL)!)
    let fileStore = FileOverrideStore(url: fileURL)
    let etcdService = LiveConfigurationService(overrideStore: etcdStore, overridePolicy: .allBuilds)
    let fileService = LiveConfigurationService(
        overrideStore: fileStore, watchMode: .inotify, overridePolicy: .allBuilds)
    let arrivals = Locked<[String: UInt64]>([:])
    let observations = [etcdService, fileService].map { service in
        service.observe { names in
            let now = nanoseconds()
            arrivals.withLock { for name in names where $0[name] == nil { $0[name] = now } }
        }
    }
    defer { for observation in observations { observation.cancel() } }

    var latency: [String: [Double]] = ["etcd": [], "file": []]
    var writes: [String: [Double]] = ["etcd": [], "file": []]
    // Two rounds of each first, not counted: the first change after start-up also pays for page faults and caches.
    let (warmUp, rounds) = (2, 30)
    for round in 0..<(warmUp + rounds) {
        for kind in round.isMultiple(of: 2) ? ["etcd", "file"] : ["file", "etcd"] {
            let key = "live.\(kind).key\(round)"
            let writer = Process()
            writer.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            writer.arguments =
                kind == "etcd" ? ["--etcd-writer", etcdURL, key, "Y"] : ["--store-writer", fileURL.path, key, "Y"]
            let output = Pipe()
            writer.standardOutput = output
            try writer.run()
            let stamps = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .split(whereSeparator: \.isWhitespace).compactMap { UInt64($0) }
            writer.waitUntilExit()
            guard stamps.count == 2 else { throw BenchmarkError("the \(kind) writer failed in round \(round)") }
            let deadline = Date().addingTimeInterval(5)
            while arrivals.withLock({ $0[key] }) == nil, Date() < deadline { usleep(200) }
            guard let arrived = arrivals.withLock({ $0[key] }) else {
                throw BenchmarkError("no \(kind) notification in round \(round)")
            }
            guard round >= warmUp else { continue }
            latency[kind]!.append(Double(Int64(arrived) - Int64(stamps[0])) / 1e6)
            writes[kind]!.append(Double(stamps[1] - stamps[0]) / 1e6)
        }
        usleep(UInt32.random(in: 0...20_000))
    }
    let load =
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
        .joined(separator: " ") ?? "unknown"
    print("")
    print("Sharing a change between processes (release build; \(rounds) rounds each, alternating; load \(load))")
    print("")
    print("| path | median | p95 | worst | note |")
    print("|---|---:|---:|---:|---|")
    printRow(
        "etcd: `set` in one process -> change callback in another (transaction, then watch)", latency["etcd"]!,
        unit: "ms",
        note:
            "the set itself: \(String(format: "%.2f", median(writes["etcd"]!))) ms (a new process: a range, then a txn)"
    )
    printRow(
        "file: `set` in one process -> change callback in another (atomic replace, then inotify)", latency["file"]!,
        unit: "ms", note: "the set itself: \(String(format: "%.2f", median(writes["file"]!))) ms")
    print("")
    print(String(format: "etcd / file (medians, same run): %.2fx", median(latency["etcd"]!) / median(latency["file"]!)))
    withExtendedLifetime(etcd) {}
}
