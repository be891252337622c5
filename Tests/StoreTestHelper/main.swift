import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore
import ServiceConfigurationFiles

// A separate process for the override store's multi-process tests: it writes to a store the way the debug menu,
// the command-line tool or a running program would, and reports each write that returned.
//
//   store-test-helper set FILE KEY VALUE          one write; exit 0, or 1 with the error on stderr
//   store-test-helper hammer FILE PREFIX COUNT    COUNT writes of PREFIX.i = i, printing "ok i" after each returns
//   store-test-helper limited BYTES FILE KEY VALUE   one write with RLIMIT_FSIZE = BYTES (a disk that is "full")
//   store-test-helper stamp-set FILE KEY VALUE     one write, then prints the monotonic clock in nanoseconds
//   store-test-helper crash-after-save FILE KEY VALUE base|append
//                                                 one write that kills itself (SIGKILL) after the store is saved,
//                                                 before the journal records it (base) or before the line (append)
//   store-test-helper pid                         prints this process's id and the name the journal records
//   store-test-helper etcd-hammer URL NAME COUNT   COUNT changes of an etcd store, each setting NAME.i = i and adding
//                                                  " NAME.i" to the note of the key "shared" (every writer's changes
//                                                  conflict there), printing "ok i" after each returns
//   store-test-helper publish FILE NAME KEY...     a running program: a service on the store (catalog: the Helper
//                                                  scope) named NAME reads each KEY (helper.a, helper.b, helper.c,
//                                                  or helper.unlisted from a scope not in the catalog), publishes
//                                                  its program report, prints "published PATH", then obeys stdin:
//                                                  "read KEY" (prints "published PATH" again), "end" (ends the
//                                                  report, prints "ended"), "release" (drops the service, prints
//                                                  "released"), "exit" (drops the service and exits 0; so does the
//                                                  end of its input)
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let arguments = Array(CommandLine.arguments.dropFirst())

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

/// Writes a line to standard output at once (unbuffered), so a parent that kills this process has seen every
/// line of a write that returned.
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func store(_ path: String) -> FileOverrideStore { FileOverrideStore(url: URL(fileURLWithPath: path)) }

extension ConfigurationScopes {
    /// The keys a `publish` helper reads.
    struct Helper: ConfigurationScope {
        let helperA: AKey
        enum AKey: ConfigurationKey {
            static let name = "helper.a"
            static let defaultValue = false
        }

        let helperB: BKey
        enum BKey: ConfigurationKey {
            static let name = "helper.b"
            static let defaultValue = 1
        }

        let helperC: CKey
        enum CKey: ConfigurationKey {
            static let name = "helper.c"
            static let defaultValue = "c"
        }
    }

    /// A scope the `publish` helper reads from but leaves out of its catalog.
    struct HelperUnlisted: ConfigurationScope {
        let helperUnlisted: UnlistedKey
        enum UnlistedKey: ConfigurationKey {
            static let name = "helper.unlisted"
            static let defaultValue = 0
        }
    }
}

/// Reads the key named `name` by type, as program code would.
func read(_ name: String, from service: LiveConfigurationService) {
    switch name {
    case "helper.a": _ = service[ConfigurationScopes.Helper.AKey.self]
    case "helper.b": _ = service[ConfigurationScopes.Helper.BKey.self]
    case "helper.c": _ = service[ConfigurationScopes.Helper.CKey.self]
    case "helper.unlisted": _ = service[ConfigurationScopes.HelperUnlisted.UnlistedKey.self]
    default: fail("unknown helper key \(name)")
    }
}

/// Closes the pipes inherited from the parent other than standard input, output and error. A long-lived helper
/// must not keep the pipes of processes the test runner started at the same moment: a test reading another child's
/// output to its end, or a sibling helper waiting for the end of its input, would wait for this one. Sockets stay:
/// Foundation's `Process` in the parent watches a socket it hands each child to learn when the child exits.
func closeInheritedPipes() {
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    for descriptor in open.compactMap(Int32.init) where descriptor > 2 {
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFIFO { close(descriptor) }
    }
}

/// Writes `message` to standard error with the time, for a test's failure message.
func trace(_ message: String) {
    FileHandle.standardError.write(Data("\(Date().timeIntervalSince1970) \(message)\n".utf8))
}

/// A program that publishes its report and then follows commands from standard input.
func publish(storePath: String, name: String, keys: [String]) {
    closeInheritedPipes()
    // A watchdog: whatever happens to the test that started it, the helper is gone within five minutes (a minute
    // was too short: a full parallel test run on two cores took longer than that between the first command and
    // the last, and the watchdog's exit, not a clean one, left the report not ended).
    DispatchQueue.global().asyncAfter(deadline: .now() + 300) {
        trace("store-test-helper publish: no exit after 300 s")
        exit(3)
    }
    var service: LiveConfigurationService? = LiveConfigurationService(
        catalog: try! ConfigurationCatalog(scopes: [ConfigurationScopes.Helper.self]),
        overrideStore: store(storePath),
        watchMode: nil,
        options: .init(onWarning: nil, programName: name)
    )
    func published() {
        guard let service else { fail("the service is gone") }
        service.publishProgramReportNow()
        emit("published \(service.programReportURL?.path ?? "nothing")")
    }
    for key in keys { read(key, from: service!) }
    published()
    trace("\(name) published its first report")
    while let line = readLine() {
        // A trace on standard error, for a test that fails waiting for this program.
        trace("\(name) got \"\(line)\"")
        defer { trace("\(name) done \"\(line)\"") }
        let words = line.split(separator: " ").map(String.init)
        switch words.first {
        case "read" where words.count == 2:
            read(words[1], from: service!)
            published()
        case "end":
            service?.endProgramReport()
            emit("ended")
        case "release":
            service = nil
            emit("released")
        case "exit":
            return
        default:
            fail("unknown command \(line)")
        }
    }
}

switch arguments.first {
case "set" where arguments.count == 4:
    do { try store(arguments[1]).set(arguments[3], forKey: arguments[2]) } catch { fail("\(error)") }
case "hammer" where arguments.count == 4:
    let target = store(arguments[1])
    for index in 0..<(Int(arguments[3]) ?? 0) {
        do { try target.set(String(index), forKey: "\(arguments[2]).\(index)") } catch { fail("\(error)") }
        emit("ok \(index)")
    }
case "limited" where arguments.count == 5:
    signal(SIGXFSZ, SIG_IGN)
    var limit = rlimit(rlim_cur: rlim_t(arguments[1])!, rlim_max: rlim_t(arguments[1])!)
    guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0 else { fail("setrlimit failed") }
    let target = store(arguments[2])
    target.reload()
    do { try target.set(arguments[4], forKey: arguments[3]) } catch {
        emit("entries after failure: \(target.entries.count)")
        fail("\(error)")
    }
case "stamp-set" where arguments.count == 4:
    do { try store(arguments[1]).set(arguments[3], forKey: arguments[2]) } catch { fail("\(error)") }
    emit(String(DispatchTime.now().uptimeNanoseconds))
case "crash-after-save" where arguments.count == 5:
    let point: StoreFileOperation = arguments[4] == "base" ? .journalBase : .journalAppend
    let target = FileOverrideStore(
        url: URL(fileURLWithPath: arguments[1]),
        faults: { operation in
            if operation == point { kill(getpid(), SIGKILL) }
            return nil
        })
    do { try target.set(arguments[3], forKey: arguments[2]) } catch { fail("\(error)") }
    fail("still alive after the save")
case "pid" where arguments.count == 1:
    emit("\(getpid()) \(OverrideChangeOrigin.program().name)")
case "etcd-hammer" where arguments.count == 4:
    guard let url = URL(string: arguments[1]), let count = Int(arguments[3]) else { fail("bad URL or count") }
    let target: EtcdOverrideStore
    do { target = try EtcdOverrideStore(url: url, timeout: .seconds(10)) } catch { fail("\(error)") }
    let name = arguments[2]
    for index in 0..<count {
        do {
            try target.modify { entries in
                entries["\(name).\(index)"] = OverrideEntry(value: String(index), setAt: nil)
                var shared = entries["shared"] ?? OverrideEntry(value: "shared", setAt: nil, note: "")
                shared.note = (shared.note ?? "") + " \(name).\(index)"
                entries["shared"] = shared
            }
        } catch {
            fail("\(error)")
        }
        emit("ok \(index)")
    }
case "publish" where arguments.count >= 3:
    publish(storePath: arguments[1], name: arguments[2], keys: Array(arguments.dropFirst(3)))
default:
    fail("usage: store-test-helper set|hammer|limited|stamp-set|crash-after-save|pid|etcd-hammer|publish ...")
}
