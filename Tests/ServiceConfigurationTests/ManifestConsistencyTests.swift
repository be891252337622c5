import DemoConfiguration
import Foundation
import ServiceConfiguration
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

    @Test("the demo's manifest, written by the program, passes every check")
    func demoAccepted() throws {
        let catalog = try DemoConfiguration.makeCatalog()
        let restored = try ConfigurationCatalog(manifest: catalog.manifestJSON())
        #expect(restored.keyCount == catalog.keyCount)
    }
}
