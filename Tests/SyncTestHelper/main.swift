import Foundation
import ServiceConfiguration

// A separate process for the server-values sync tests: a program syncing from a real server, to be killed with
// SIGKILL while it writes its snapshot.
//
//   sync-test-helper hammer URL VALUES_FILE SNAPSHOT KEYS COUNT
//       COUNT times: serve generation i (KEYS keys, each "i") by rewriting VALUES_FILE (the fixture server's
//       values), sync from URL into SNAPSHOT, and print "ok i" once the sync (and its snapshot write) returned.
//   sync-test-helper memory URL
//       one sync from URL; prints the outcome's error kind (or "ok"), the resident set before the sync and its
//       peak during it, in KiB (the peak is reset first through /proc/self/clear_refs).

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
