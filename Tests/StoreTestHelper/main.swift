import Foundation
import ServiceConfiguration

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
default:
    fail("usage: store-test-helper set|hammer|limited|stamp-set|crash-after-save|pid ...")
}
