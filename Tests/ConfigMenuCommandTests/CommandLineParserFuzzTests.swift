import Foundation
import SharedTestSupport
import Testing

@testable import config_menu

#if canImport(Glibc)
    import Glibc
#endif

@Suite("config-menu argument parsing fuzz (seeded; FUZZ_ITERATIONS sets the count)", .serialized)
struct CommandLineParserFuzzTests {
    /// Words arguments are drawn from: every command and option, values, and hostile text.
    static let words: [String] = [
        "list", "get", "set", "reset", "export", "import", "catalog", "help", "lsit", "--help", "-h", "--", "-", "",
        "--json", "--overridden", "--problems", "--note", "--scope", "--all", "--replace", "--dry-run", "--force",
        "--no-mouse", "--store", "--manifest", "--server-values", "--synthetic-keys", "--synthetic-scopes",
        "--store=", "--note=x", "--json=1", "--synthetic-keys=0", "--synthetic-keys=-5", "--synthetic-keys=99999999999",
        "=", "--=", "function.album.like.enabled", "function.album.max_photos", "Album", "Y", "N", "12", "-1",
        "\u{1B}]0;x\u{07}", "\u{0}", "é", "👨‍👩‍👧", String(repeating: "k", count: 2_000), "\n", "--unknown",
    ]

    static let documented: Set<Int32> = [0, 1, 2, 3, 4]

    static func arguments(_ random: inout SeededGenerator) -> [String] {
        (0..<Int.random(in: 0...6, using: &random)).map { _ in
            if Int.random(in: 0..<8, using: &random) == 0 {
                return String(
                    String.UnicodeScalarView(
                        (0..<Int.random(in: 0...6, using: &random)).compactMap { _ in
                            Unicode.Scalar(UInt32.random(in: 0...0x1F_FFFF, using: &random))
                        }))
            }
            return words.randomElement(using: &random)!
        }
    }

    @Test("the parser and the per-command checks never crash and give only documented exit codes")
    func inProcess() {
        var random = SeededGenerator(seed: 0xC11_0008)
        var outcomes: [Int32: Int] = [:]
        for _ in 0..<fuzzIterations(default: 20_000) {
            let arguments = Self.arguments(&random)
            let malformed = Set((0..<arguments.count).filter { _ in Int.random(in: 0..<20, using: &random) == 0 })
            let code: Int32
            do {
                let invocation = try Invocation(arguments, malformed: malformed)
                try Commands.checkShape(of: invocation)
                if invocation.command == "set" { try invocation.requireValidUTF8() }
                code = 0
            } catch {
                code = CommandLineTool.exitCode(for: error).rawValue
                #expect(!CommandLineTool.message(for: error).isEmpty)
            }
            #expect(Self.documented.contains(code), "\(arguments) gave \(code)")
            outcomes[code, default: 0] += 1
        }
        // The vocabulary reaches both sides: accepted command lines and usage errors.
        #expect(outcomes[0, default: 0] > 0 && outcomes[2, default: 0] > 0)
    }

    @Test("the real binary on random command lines against a temporary store: documented exit codes, no traps")
    func realProcesses() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "config-menu-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(folder.path, 0o700)
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = SeededGenerator(seed: 0xC11_0009)
        // One real run per thousand in-process iterations: 20 by default, 100 with FUZZ_ITERATIONS=100000.
        for iteration in 0..<max(1, fuzzIterations(default: 20_000) / 1_000) {
            var arguments = Self.arguments(&random).filter { !$0.contains("\0") }
            arguments += ["--store", folder.appendingPathComponent("overrides.json").path]
            // Run inside the temporary folder, so any file a random argument names (export Y) lands there.
            let run = try runTool(
                "config-menu", arguments,
                environment: .changing(["XDG_STATE_HOME": folder.path, "CONFIG_OVERRIDES_FILE": nil]),
                directory: folder, standardOutput: .discard)
            #expect(Self.documented.contains(run.status), "iteration \(iteration): \(arguments) gave \(run.status)")
            #expect(!run.error.contains("Fatal error"), "iteration \(iteration): \(run.error)")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(!names.contains { $0.contains(".corrupt-") }, "iteration \(iteration) moved something aside")
        }
    }
}
