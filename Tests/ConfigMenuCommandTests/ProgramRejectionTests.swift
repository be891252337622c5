import Foundation
import SharedTestSupport
import Testing

@Suite("config-menu shows overrides a running program rejected", .serialized)
struct ProgramRejectionTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-menu-rej-\(UUID().uuidString)")
    var store: URL { folder.appendingPathComponent("overrides.json") }

    /// A manifest in which `helper.b` is text: the standalone tool accepts any string, while the program (the
    /// `store-test-helper`, where `helper.b` is an `Int`) refuses one that is not a number.
    func writeManifest() throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let manifest = folder.appendingPathComponent("helper.manifest.json")
        let text = #"""
            {"format": "service-configuration-manifest", "version": 1, "scopes": [{"name": "Helper", "keys": [
              {"name": "helper.a", "control": {"kind": "toggle", "on": "Y", "off": "N"}, "default": "N"},
              {"name": "helper.b", "control": {"kind": "text"}, "default": "1"}]}]}
            """#
        try Data(text.utf8).write(to: manifest)
        return manifest
    }

    /// Runs the helper program on the store: it reads `helper.b`, publishes its report, ends it and exits.
    func runProgram(named name: String) throws {
        // Its standard error is a trace of the commands it took.
        let helper = try runTool(
            "store-test-helper", ["publish", store.path, name, "helper.b"], input: Data("end\nexit\n".utf8))
        #expect(helper.status == 0)
    }

    @Test("list --problems, get and --json name the program and its reason; a newer value clears it")
    func rejectedByProgram() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let options = ["--manifest", try writeManifest().path, "--store", store.path]
        #expect(try configMenu(["set", "helper.b", "lots"] + options).status == 0)
        // Before any program ran, nothing is known to be wrong.
        #expect(try configMenu(["list", "--problems"] + options).output.hasPrefix("no keys match"))
        try runProgram(named: "rejecting-app")

        let problems = try configMenu(["list", "--problems"] + options)
        #expect(problems.output.contains("helper.b"))
        #expect(problems.output.contains("✗"))
        let get = try configMenu(["get", "helper.b"] + options)
        #expect(get.output.contains("rejected by rejecting-app (pid "))
        #expect(get.output.contains("ended): "))
        let json = try configMenu(["get", "helper.b", "--json"] + options)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let rejections = try #require(object["rejectedByPrograms"] as? [[String: Any]])
        #expect(rejections.count == 1)
        #expect(rejections.first?["program"] as? String == "rejecting-app")
        #expect(rejections.first?["status"] as? String == "ended")
        #expect((rejections.first?["reason"] as? String)?.isEmpty == false)

        // The program has not seen a newer value: its old rejection is not this value's.
        #expect(try configMenu(["set", "helper.b", "7"] + options).status == 0)
        #expect(try configMenu(["list", "--problems"] + options).output.hasPrefix("no keys match"))
        let cleared = try configMenu(["get", "helper.b", "--json"] + options)
        #expect(cleared.output.contains(#""rejectedByPrograms": []"#))
    }
}
