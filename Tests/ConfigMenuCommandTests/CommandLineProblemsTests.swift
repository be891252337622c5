import Foundation
import SharedTestSupport
import Testing

@Suite("QA day: the command line reports server problems under overrides")
struct CommandLineProblemsTests {
    func run(_ arguments: [String]) throws -> ToolRun { try configMenu(arguments) }

    @Test("get --json keeps the server's rejection when an override wins, and list --problems lists the key")
    func rejectedServerValueUnderOverride() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-problems-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("overrides.json").path
        // The demo's server sends "y" for the like flag, which the Bool key rejects.
        #expect(try run(["set", "function.album.like.enabled", "Y", "--store", store]).status == 0)
        let get = try run(["get", "function.album.like.enabled", "--json", "--store", store])
        #expect(get.output.contains(#""source": "overridden""#))
        #expect(get.output.contains(#""source": "server""#), "the rejection is still reported: \(get.output)")
        let problems = try run(["list", "--problems", "--store", store])
        #expect(problems.output.contains("function.album.like.enabled"))
    }
}
