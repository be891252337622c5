import Foundation
import ServiceConfiguration

// A separate process for the override store's multi-process tests: it writes to a store the way the debug menu,
// the command-line tool or a running program would, and reports each write that returned.
//
//   store-test-helper set FILE KEY VALUE          one write; exit 0, or 1 with the error on stderr
//   store-test-helper hammer FILE PREFIX COUNT    COUNT writes of PREFIX.i = i, printing "ok i" after each returns
//   store-test-helper limited BYTES FILE KEY VALUE   one write with RLIMIT_FSIZE = BYTES (a disk that is "full")
//   store-test-helper stamp-set FILE KEY VALUE     one write, then prints the monotonic clock in nanoseconds
//   store-test-helper etcd-hammer URL NAME COUNT   COUNT changes of an etcd store, each setting NAME.i = i and adding
//                                                  " NAME.i" to the note of the key "shared" (every writer's changes
//                                                  conflict there), printing "ok i" after each returns
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
default:
    fail("usage: store-test-helper set|hammer|limited|stamp-set|etcd-hammer ...")
}
