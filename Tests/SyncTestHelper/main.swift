import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore

// A separate process for the server-values sync tests: a program syncing from a real server, to be killed with
// SIGKILL while it writes its snapshot.
//
//   sync-test-helper hammer URL VALUES_FILE SNAPSHOT KEYS COUNT
//       COUNT times: serve generation i (KEYS keys, each "i") by rewriting VALUES_FILE (the fixture server's
//       values), sync from URL into SNAPSHOT, and print "ok i" once the sync (and its snapshot write) returned.
//   sync-test-helper memory URL
//       one sync from URL; prints the outcome's error kind (or "ok"), the resident set before the sync and its
//       peak during it, in KiB (the peak is reset first through /proc/self/clear_refs).
//   sync-test-helper fetch URL TIMEOUT
//       one sync from URL (timeout in seconds) into a service that already holds {"kept.key": "kept"}; prints one
//       JSON object: "outcome" (updated, notModified, failed), "kind" and "reason" of a failure, the service's
//       "values" after it, the "etag" the sync keeps, and the "seconds" it took. A hostile answer that crashes the
//       transport ends this process, not the test run.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

let arguments = Array(CommandLine.arguments.dropFirst())

/// A field of /proc/self/status, in KiB.
func status(_ field: String) -> Int {
    let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = text.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
}

if arguments.count == 2, arguments[0] == "memory", let url = URL(string: arguments[1]) {
    let sync = ServerValuesSync(
        source: HTTPServerValuesSource(url: url, timeout: .seconds(20)), service: LiveConfigurationService(),
        snapshot: .none)
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    let before = status("VmRSS")
    let outcome = await sync.sync()
    print(outcome.error?.kind.rawValue ?? "ok", before, status("VmHWM"))
    exit(0)
}

if arguments.count == 3, arguments[0] == "fetch", let url = URL(string: arguments[1]),
    let timeout = Double(arguments[2])
{
    let service = LiveConfigurationService(serverValues: ["kept.key": "kept"])
    let sync = ServerValuesSync(
        source: HTTPServerValuesSource(url: url, timeout: .milliseconds(Int64(timeout * 1000))), service: service,
        snapshot: .none)
    let started = Date()
    let outcome = await sync.sync()
    let name: String
    switch outcome {
    case .updated: name = "updated"
    case .notModified: name = "notModified"
    case .failed: name = "failed"
    }
    var report: [String: Any] = [
        "outcome": name, "values": service.serverValues, "seconds": Date().timeIntervalSince(started),
    ]
    report["kind"] = outcome.error?.kind.rawValue
    report["reason"] = outcome.error?.reason
    report["etag"] = sync.status.validators.etag
    let data = (try? JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])) ?? Data("{}".utf8)
    FileHandle.standardOutput.write(data + Data("\n".utf8))
    exit(0)
}

guard arguments.count == 6, arguments[0] == "hammer", let url = URL(string: arguments[1]),
    let keys = Int(arguments[4]), let count = Int(arguments[5])
else {
    fail("usage: sync-test-helper hammer URL VALUES_FILE SNAPSHOT KEYS COUNT")
}
let valuesFile = URL(fileURLWithPath: arguments[2])
let service = LiveConfigurationService()
let sync = ServerValuesSync(
    source: HTTPServerValuesSource(url: url, timeout: .seconds(10)), service: service,
    snapshot: .file(URL(fileURLWithPath: arguments[3])))
for generation in 0..<count {
    var values: [String: String] = [:]
    for key in 0..<keys { values["key.\(key)"] = String(generation) }
    do {
        try JSONSerialization.data(withJSONObject: values).write(to: valuesFile, options: .atomic)
    } catch {
        fail("cannot write \(valuesFile.path): \(error)")
    }
    switch await sync.sync() {
    case .updated:
        if let problem = sync.status.snapshotProblem { fail("snapshot not saved: \(problem)") }
        FileHandle.standardOutput.write(Data("ok \(generation)\n".utf8))
    case let other:
        fail("generation \(generation): \(other)")
    }
}
