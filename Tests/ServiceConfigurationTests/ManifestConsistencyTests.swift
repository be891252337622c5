import DemoConfiguration
import Foundation
import ServiceConfiguration
import SharedTestSupport
import Testing

@Suite("Manifests that contradict themselves are refused with the place inside the file")
struct ManifestConsistencyTests {
    static func manifest(keys: String) -> Data {
        Data(
            #"{"format": "service-configuration-manifest", "version": 1, "scopes": [{"name": "A", "keys": [{"name": "a", "control": {"kind": "text"}}]}, {"name": "B", "keys": [\#(keys)]}]}"#
                .utf8)
    }

    @Test(
        "each contradiction names its path",
        arguments: [
            (
                #"{"name": "p", "default": "c", "control": {"kind": "picker", "choices": [{"value": "a"}, {"value": "b"}]}}"#,
                #"scopes[1].keys[0].default: "c" is not one of the picker's choices (a, b)"#
            ),
            (
                #"{"name": "x", "control": {"kind": "text"}}, {"name": "p", "control": {"kind": "picker", "choices": [{"value": "a"}, {"value": "b"}, {"value": "a"}]}}"#,
                #"scopes[1].keys[1].control.choices[2]: duplicate value "a" (also choices[0])"#
            ),
            (
                #"{"name": "t", "default": "Y", "control": {"kind": "toggle", "on": "Y", "off": "Y"}}"#,
                #"scopes[1].keys[0].control.off: equals control.on ("Y"); a toggle needs two different wire strings"#
            ),
            (
                #"{"name": "t", "control": {"kind": "toggle"}, "default": "yes"}"#,
                #"scopes[1].keys[0].default: expected Y or N, got "yes""#
            ),
            (
                #"{"name": "n", "control": {"kind": "number", "number": "integer"}, "default": "1.5"}"#,
                #"scopes[1].keys[0].default: expected an integer, got "1.5""#
            ),
            (
                #"{"name": "j", "control": {"kind": "json"}, "default": "{"}"#,
                #"scopes[1].keys[0].default: not valid JSON: unexpected end of file during JSON parse"#
            ),
        ]
    )
    func refused(keys: String, problem: String) {
        #expect(throws: ConfigurationManifestError(url: nil, problem: problem)) {
            try ConfigurationCatalog(manifest: Self.manifest(keys: keys))
        }
    }

    @Test("a picker's first repeated value is refused naming the one it repeats, lists short and long (seeded)")
    func duplicateChoices() throws {
        var random = SeededGenerator(seed: 2712)
        for _ in 0..<600 {
            let count = Int.random(in: 1...40, using: &random)
            var values = (0..<count).map { "v\($0)" }
            var repeated: (first: Int, index: Int)?
            if count > 1, Bool.random(using: &random) {
                let index = Int.random(in: 1..<count, using: &random)
                // Anywhere before it, or just before it (so long lists repeat late choices too).
                let first = Bool.random(using: &random) ? Int.random(in: 0..<index, using: &random) : index - 1
                if Bool.random(using: &random) {
                    values[first] = "\u{E9}\(first)"
                    values[index] = "e\u{301}\(first)"
                } else {
                    values[index] = values[first]
                }
                repeated = (first, index)
            }
            let choices = values.map { #"{"value": "\#($0)", "title": "T \#($0)"}"# }.joined(separator: ", ")
            let data = Self.manifest(keys: #"{"name": "p", "control": {"kind": "picker", "choices": [\#(choices)]}}"#)
            if let (first, index) = repeated {
                let error = #expect(throws: ConfigurationManifestError.self) {
                    try ConfigurationCatalog(manifest: data)
                }
                let problem = error?.problem ?? ""
                #expect(
                    problem.hasPrefix("scopes[1].keys[0].control.choices[\(index)]: duplicate value ")
                        && problem.hasSuffix("(also choices[\(first)])"), "\(count) choices: \(problem)")
            } else {
                let catalog = try ConfigurationCatalog(manifest: data)
                #expect(
                    catalog.descriptor(named: "p")?.control
                        == .picker(values.map { .init(value: $0, title: "T \($0)") }))
            }
        }
    }

    @Test("pickers that differ only in their choices' titles or enabled flags each keep their own")
    func pickersKeepTheirTitles() throws {
        let keys = [
            #"{"name": "p1", "control": {"kind": "picker", "choices": [{"value": "x", "title": "Alpha"}]}}"#,
            #"{"name": "p2", "control": {"kind": "picker", "choices": [{"value": "x", "title": "Apple"}]}}"#,
            #"{"name": "p3", "control": {"kind": "picker", "choices": [{"value": "x", "title": "Alpha", "enabled": true}]}}"#,
            #"{"name": "p4", "control": {"kind": "picker", "choices": [{"value": "x", "title": "Alpha"}]}}"#,
        ]
        let catalog = try ConfigurationCatalog(manifest: Self.manifest(keys: keys.joined(separator: ", ")))
        #expect(catalog.descriptor(named: "p1")?.control == .picker([.init(value: "x", title: "Alpha")]))
        #expect(catalog.descriptor(named: "p2")?.control == .picker([.init(value: "x", title: "Apple")]))
        #expect(
            catalog.descriptor(named: "p3")?.control == .picker([.init(value: "x", title: "Alpha", isEnabled: true)]))
        #expect(catalog.descriptor(named: "p4")?.control == .picker([.init(value: "x", title: "Alpha")]))
    }

    @Test("the demo's manifest, written by the program, passes every check")
    func demoAccepted() throws {
        let catalog = try DemoConfiguration.makeCatalog()
        let restored = try ConfigurationCatalog(manifest: catalog.manifestJSON())
        #expect(restored.keyCount == catalog.keyCount)
    }
}
