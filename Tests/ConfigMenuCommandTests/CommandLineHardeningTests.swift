import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationFiles
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `script` with `/bin/sh` in `folder`, with `$MENU` and `$DEMO` naming the built binaries and `$T` the folder.
func shellRun(_ script: String, folder: URL) throws -> ToolRun {
    try ChildProcess.run(
        "/bin/sh", ["-c", script],
        environment: .changing([
            "MENU": TmuxSession.binary, "DEMO": BuiltTools.path("config-demo"), "T": folder.path,
            "XDG_STATE_HOME": folder.path, "CONFIG_OVERRIDES_FILE": nil,
        ]), directory: folder.path)
}

@Suite("config-menu and config-demo never lose or harm anything", .serialized)
struct CommandLineHardeningTests {
    let folder: URL
    var store: String { folder.appendingPathComponent("overrides.json").path }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-menu-hard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(folder.path, 0o700)
    }

    func sh(_ script: String) throws -> ToolRun { try shellRun(script, folder: folder) }

    /// The names under `path`, recursively, with each file's contents.
    func tree(_ path: String) -> [String: String] {
        var result: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: path)
        while let name = enumerator?.nextObject() as? String {
            result[name] = (try? String(contentsOfFile: path + "/" + name, encoding: .utf8)) ?? "(folder)"
        }
        return result
    }

    @Test("an empty --store is a usage error; a folder is refused by name, and never moved, by every command")
    func foldersNeverMoved() throws {
        let project = folder.appendingPathComponent("project")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: project.appendingPathComponent("file.txt"))
        let before = tree(folder.path)
        for command in [
            "list", "get function.album.like.enabled", "catalog", "export", "set function.album.like.enabled Y",
        ] {
            let empty = try sh("cd project && $MENU --store '' \(command)")
            #expect(empty.status == 2, "\(command): \(empty.error)")
            #expect(
                empty.error.contains(
                    "--store needs a file name, etcd://HOST:PORT/PREFIX or http://HOST:PORT, got an empty string"))
            for store in [".", "project/", "$T/project"] {
                let run = try sh("$MENU --store \(store) \(command)")
                #expect(run.status == 4, "\(command) --store \(store): \(run.status) \(run.error)")
                #expect(run.error.contains("project") || store == ".", "\(run.error)")
                #expect(run.error.contains("is a folder, not a file"), "\(run.error)")
            }
            let variable = try sh("CONFIG_OVERRIDES_FILE=$T/project $MENU \(command)")
            #expect(variable.status == 4)
            #expect(variable.error.contains("\(project.path): this is a folder, not a file"))
        }
        for store in ["--store project", "--store project/", "--store ''"] {
            let demo = try sh("$DEMO \(store)")
            #expect(demo.status == (store.hasSuffix("''") ? 2 : 4), "\(store): \(demo.error)")
        }
        let demo = try sh("CONFIG_OVERRIDES_FILE=$T/project $DEMO")
        #expect(demo.status == 4)
        #expect(demo.error.contains("is a folder, not a file"))
        var after = tree(folder.path)
        after = after.filter { !$0.key.hasSuffix(".lock") }
        #expect(after == before)
    }

    @Test("export writes through devices and fails on a full one; standard output failures exit 4 with the reason")
    func outputFailures() throws {
        #expect(try sh("$MENU --store \(store) set function.album.like.enabled Y").status == 0)
        let devnull = try sh("$MENU --store \(store) export /dev/null")
        #expect(devnull.status == 0)
        let full = try sh("$MENU --store \(store) export /dev/full")
        #expect(full.status == 4)
        #expect(full.error.contains("cannot write to /dev/full: No space left on device"))
        var info = stat()
        #expect(stat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        let stdout = try sh("$MENU --store \(store) export /dev/stdout")
        #expect(stdout.status == 0)
        #expect(stdout.output.contains("\"function.album.like.enabled\""))
        for script in [
            "$MENU --store \(store) export > /dev/full", "$MENU --store \(store) list --json > /dev/full",
            "$MENU --store \(store) get function.album.like.enabled > /dev/full",
        ] {
            let run = try sh(script)
            #expect(run.status == 4, "\(script)")
            #expect(run.error == "config-menu: cannot write to standard output: No space left on device (errno 28)\n")
        }
        let closed = try sh("$MENU --store \(store) export >&-")
        #expect(closed.status == 4)
        #expect(closed.error.contains("cannot write to standard output: Bad file descriptor"))
        // Nothing the tool opened took standard output's place: the lock file is empty.
        #expect(try sh("$MENU --store \(store) set function.album.like.enabled N >&-").status == 4)
        #expect((try? Data(contentsOf: URL(fileURLWithPath: store + ".lock")))?.isEmpty == true)
        // A closed pipe stops the tool quietly, with the documented status.
        let broken = try sh(
            "( $MENU --store \(store) list --synthetic-keys 20000; echo $? > \(folder.path)/status ) | head -c 10 > /dev/null"
        )
        #expect(broken.error.isEmpty, "\(broken.error)")
        #expect(try String(contentsOfFile: folder.path + "/status", encoding: .utf8) == "141\n")
    }

    @Test("writes past the shared limits are refused with exit 3, naming the limit; nothing is written")
    func limits() throws {
        #expect(try sh("$MENU --store \(store) set function.album.like.enabled Y").status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let note = try sh("$MENU --store \(store) set function.album.like.enabled N --note \"$(printf '%05000d' 0)\"")
        #expect(note.status == 3)
        #expect(
            note.error.contains("the note of function.album.like.enabled is 5000 bytes (4.8 KiB); the limit is 4 KiB"))
        let longName = String(repeating: "k", count: 1_100)
        let manifest = folder.appendingPathComponent("manifest.json")
        try Data(
            #"{"format": "service-configuration-manifest", "version": 1, "scopes": [{"name": "A", "keys": [{"name": "\#(longName)", "title": "Long", "type": "String", "default": "", "control": {"kind": "text"}}]}]}"#
                .utf8
        ).write(to: manifest)
        let name = try sh("$MENU --store \(store) --manifest \(manifest.path) set \(longName) x")
        #expect(name.status == 3, "\(name.error)")
        #expect(name.error.contains("the key name is 1100 bytes (1.0 KiB); the limit is 1 KiB"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        for round in 0..<2 {
            let entries = (0..<5).map {
                #""p\#(round).\#($0)": {"value": "\#(String(repeating: "x", count: 1_000_000))"}"#
            }
            let profile = folder.appendingPathComponent("big\(round).json")
            try Data(
                #"{"format": "service-configuration-overrides", "version": 1, "overrides": {\#(entries.joined(separator: ", "))}}"#
                    .utf8
            ).write(to: profile)
            let run = try sh("$MENU --store \(store) import \(profile.path) --force")
            if round == 0 {
                #expect(run.status == 0, "\(run.error)")
            } else {
                #expect(run.status == 3)
                #expect(run.error.contains("; the limit is 8 MiB; nothing was saved"))
            }
        }
        let list = try sh("$MENU --store \(store) list --overridden")
        #expect(list.status == 0, "\(list.error)")
        #expect(list.output.contains("p0.4"))
    }

    @Test("values, notes, names and titles never reach the terminal raw; --json escapes them as \\u")
    func escapeInjection() throws {
        let hostile = "x\u{1B}]52;c;SGk=\u{07}y\u{1B}]0;PWNED\u{07}z\u{9B}31m"
        let file = folder.appendingPathComponent("hostile.json")
        var json: [UInt8] = []
        JSONWriter.appendString(hostile, to: &json)
        let text = String(decoding: json, as: UTF8.self)
        try Data(
            #"{"format": "service-configuration-overrides", "version": 1, "overrides": {"function.chat.translation.default_language": {"note": \#(text), "serverValueWhenSet": \#(text), "value": \#(text)}, "orphan.\#(text.dropFirst().dropLast())": {"value": \#(text)}, "bad.entry": {"value": 1, "junk": \#(text)}}}"#
                .utf8
        ).write(to: URL(fileURLWithPath: store))
        chmod(store, 0o600)
        func raw(_ run: ToolRun) -> Bool {
            (run.output + run.error).unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{9B}" }
        }
        let runs = [
            try sh("$MENU --store \(store) list"),
            try sh("$MENU --store \(store) list --problems"),
            try sh("$MENU --store \(store) get function.chat.translation.default_language"),
            try sh("$MENU --store \(store) get bad.entry"),
            try sh("$MENU --store \(store) get \"$(printf 'no.such\\033]0;T\\007')\""),
            try sh(
                "$MENU --store \(store) set function.chat.translation.default_language \"$(printf 'a\\033]0;T\\007b')\""
            ),
            try sh("$MENU --store \(store) import \(file.path) --dry-run"),
            try sh("$MENU --store \(store) import \"$(printf '\\033]0;T\\007')\""),
            try sh("$MENU --store \(store) list --json"),
            try sh("$MENU --store \(store) get function.chat.translation.default_language --json"),
        ]
        try Data(
            #"{"format": "service-configuration-overrides", "version": 1, "overrides": {"function.chat.translation.default_language": {"value": \#(text)}}}"#
                .utf8
        ).write(to: file)
        let importRun = try sh("$MENU --store \(store) import \(file.path) --dry-run")
        for run in runs + [importRun] { #expect(!raw(run), "raw control characters in: \(run.output)\(run.error)") }
        #expect(runs[2].output.contains(#"x\u{001B}]52;c;SGk=\u{0007}y\u{001B}]0;PWNED\u{0007}z\u{009B}31m"#))
        #expect(runs[3].output.contains("not applied: \"value\" must be a string, found a number"))
        #expect(runs[8].output.contains(#"\u001b]52;c;SGk=\u0007y\u001b]0;PWNED\u0007z\u009b31m"#))
        #expect(runs[1].output.contains("bad.entry"))
        let demo = try sh("timeout -s INT 2 $DEMO --store \(store); true")
        #expect(!raw(demo), "raw control characters in: \(demo.output)")
    }

    @Test("invalid UTF-8 in a value or note is refused with exit 3; nothing is written")
    func invalidUTF8() throws {
        #expect(try sh("$MENU --store \(store) set function.album.like.enabled Y").status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let value = try sh(
            "$MENU --store \(store) set function.chat.translation.default_language \"$(printf 'a\\377b')\"")
        #expect(value.status == 3)
        #expect(value.error.contains("is not valid UTF-8; nothing was changed"))
        let note = try sh("$MENU --store \(store) set function.album.like.enabled N --note \"$(printf '\\300\\200')\"")
        #expect(note.status == 3)
        #expect(note.error.contains("the value of --note is not valid UTF-8"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }

    @Test("a corrupt store: readers report it and exit 4 without moving it; a writer moves it aside and says where")
    func corruptStore() throws {
        try Data("{ broken".utf8).write(to: URL(fileURLWithPath: store))
        chmod(store, 0o600)
        for command in ["list", "get function.album.like.enabled", "export"] {
            let run = try sh("$MENU --store \(store) \(command)")
            #expect(run.status == 4, "\(command)")
            #expect(run.error.contains("not valid JSON"), "\(command): \(run.error)")
            #expect(try String(contentsOfFile: store, encoding: .utf8) == "{ broken")
        }
        #expect(try sh("$MENU --store \(store) list").output.contains("function.album.like.enabled"))
        let set = try sh("$MENU --store \(store) set function.album.like.enabled Y")
        #expect(set.status == 0)
        #expect(set.error.contains("The file was moved aside to \(store).corrupt-"))
        let copies = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.contains(".corrupt-")
        }
        #expect(copies.count == 1)
        #expect(try String(contentsOfFile: folder.path + "/" + copies[0], encoding: .utf8) == "{ broken")
        let get = try sh("$MENU --store \(store) get function.album.like.enabled")
        #expect(get.status == 0)
    }

    @Test("a store made read-only is respected; a held lock makes set fail after the bound, naming the lock")
    func readOnlyAndLock() throws {
        #expect(try sh("$MENU --store \(store) set function.album.like.enabled Y").status == 0)
        chmod(store, 0o400)
        let readOnly = try sh("$MENU --store \(store) set function.album.like.enabled N")
        #expect(readOnly.status == 4)
        #expect(
            readOnly.error.contains(
                "the file is read-only (mode 400), so it is not changed. To allow changes: chmod 600"))
        chmod(store, 0o600)
        // The holder says when it has the lock; the shell polls for that (bounded), then times the tool.
        let held = try sh(
            "python3 -c 'import fcntl,sys,time; f=open(sys.argv[1],\"a\"); fcntl.flock(f,fcntl.LOCK_EX); "
                + "open(sys.argv[2],\"w\").close(); time.sleep(30)' \(store).lock $T/locked > /dev/null 2>&1 & holder=$!; "
                + "for i in $(seq 200); do [ -e $T/locked ] && break; sleep 0.05; done; "
                + "start=$(date +%s); $MENU --store \(store) set function.album.like.enabled N; "
                + "echo \"status $? after $(( $(date +%s) - start ))\"; kill -9 $holder")
        #expect(held.output.contains("status 4 after"), "\(held.output)")
        let seconds =
            Int(held.output.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 99
        #expect((4...8).contains(seconds))
        #expect(held.error.contains("another process has held the lock file \(store).lock for more than 5 s"))
    }

    @Test("a duplicate key name in one scope is named once")
    func duplicateInOneScope() throws {
        let manifest = folder.appendingPathComponent("dup.json")
        let key = #"{"name": "k", "title": "K", "type": "String", "default": "", "control": {"kind": "text"}}"#
        try Data(
            #"{"format": "service-configuration-manifest", "version": 1, "scopes": [{"name": "A", "keys": [\#(key), \#(key)]}]}"#
                .utf8
        ).write(to: manifest)
        let run = try sh("$MENU --store \(store) --manifest \(manifest.path) list")
        #expect(run.status == 4)
        #expect(run.error.contains("key name \"k\" is declared twice in scope A"), "\(run.error)")
    }

    @Test("live reload in the running demo survives its folder being deleted and recreated")
    func demoFolderRecreated() async throws {
        let state = folder.appendingPathComponent("state")
        let store = state.appendingPathComponent("overrides.json").path
        let demo = try DemoProcess(store: URL(fileURLWithPath: store))
        func wait(for text: String) async throws -> Bool { try await demo.wait(for: text, within: 5) }
        #expect(try await wait(for: "typing indicator refresh: every 2500 ms"))
        for value in ["1111", "2222"] {
            #expect(try sh("rm -rf '\(state.path)' && mkdir -m 700 '\(state.path)'").status == 0)
            #expect(try sh("$MENU --store \(store) set function.chat.typing_interval_ms \(value)").status == 0)
            #expect(try await wait(for: "typing indicator refresh: every \(value) ms"), "after recreating, \(value)")
        }
    }
}
