import DemoConfiguration
import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import Testing

@Suite("Catalog manifests: a catalog as JSON, for tools that do not link the program")
struct ManifestTests {
    @Test("a manifest round-trips every key's name, scope, title, type, default, control and summary")
    func roundTrip() throws {
        let catalog = try DemoConfiguration.makeCatalog()
        let restored = try ConfigurationCatalog(manifest: catalog.manifestJSON())
        #expect(restored.scopes.map(\.name) == catalog.scopes.map(\.name))
        for (original, copy) in zip(catalog.keys, restored.keys) {
            #expect(copy.name == original.name)
            #expect(copy.scopeName == original.scopeName)
            #expect(copy.title == original.title)
            #expect(copy.valueTypeName == original.valueTypeName)
            #expect(copy.defaultValueString == original.defaultValueString)
            #expect(copy.control == original.control)
            #expect(copy.summary == original.summary)
        }
        #expect(catalog.manifestJSON() == restored.manifestJSON(), "writing the restored catalog gives the same bytes")
    }

    @Test("values are validated from the control descriptions alone")
    func validation() throws {
        let restored = try ConfigurationCatalog(manifest: try DemoConfiguration.makeCatalog().manifestJSON())
        func check(_ name: String, _ raw: String) -> String {
            do {
                return try restored.descriptor(named: name)!.validate(raw)
            } catch {
                return "error: \(error)"
            }
        }
        #expect(check("function.album.like.enabled", "Y") == "Y")
        #expect(check("function.album.like.enabled", "y") == "error: expected Y or N, got \"y\"")
        #expect(check("ab.album.like_button", "on") == "on")
        #expect(check("ab.album.like_button", "maybe") == "error: expected one of: none, off, on, got \"maybe\"")
        #expect(check("function.album.max_photos", "007") == "7")
        #expect(check("function.album.max_photos", "7.5") == "error: expected an integer, got \"7.5\"")
        #expect(check("function.stickers.animation_scale", "1.50") == "1.5")
        #expect(check("function.chat.reaction_set", #"[ "a" , "b" ]"#) == #"["a","b"]"#)
        #expect(check("function.chat.reaction_set", "[").hasPrefix("error: not valid JSON"))
        #expect(
            check("function.media.image_medium", "anything at all")
                == "error: expected MAX_SIDE,QUALITY such as 1280,70 (quality 1-100), got \"anything at all\"",
            "the custom string type's pattern travels in the manifest")
        #expect(check("function.media.image_medium", "640,100") == "640,100")
    }

    @Test(
        "malformed manifests are refused with the place and the problem",
        arguments: [
            (
                #"{"format": "x", "version": 1, "scopes": []}"#,
                "\"format\" must be \"service-configuration-manifest\"; this is not a catalog manifest"
            ),
            (
                #"{"format": "service-configuration-manifest", "version": 9, "scopes": []}"#,
                "written by a newer version of the format (version 9; this build reads up to 1)"
            ),
            (#"{"format": "service-configuration-manifest", "version": 1}"#, "scopes is missing"),
            (
                #"{"format": "service-configuration-manifest", "version": 1, "scopes": [{"name": "A", "keys": [{"control": {"kind": "text"}}]}]}"#,
                "scopes[0].keys[0].name is missing"
            ),
            (
                #"{"format": "service-configuration-manifest", "version": 1, "scopes": [{"name": "A", "keys": [{"name": "k", "control": {"kind": "number", "number": "big"}}]}]}"#,
                "scopes[0].keys[0].control.number must be \"integer\" or \"floatingPoint\", found \"big\""
            ),
            (
                #"{"format": "service-configuration-manifest", "version": 1, "scopes": [{"name": "A", "keys": [{"name": "k", "control": {"kind": "picker", "choices": []}}]}]}"#,
                "scopes[0].keys[0].control.choices must list at least one choice"
            ),
            (
                #"{"format": "service-configuration-manifest", "version": 1, "scopes": [{"name": "A", "keys": [{"name": "k", "control": {"kind": "text"}}]}, {"name": "B", "keys": [{"name": "k", "control": {"kind": "text"}}]}]}"#,
                "key name \"k\" is declared in two scopes, A and B; wire names must be unique"
            ),
            ("{", "not valid JSON: unexpected end of file during JSON parse"),
        ]
    )
    func malformed(text: String, problem: String) {
        let url = URL(fileURLWithPath: "/tmp/app.manifest.json")
        #expect(throws: ConfigurationManifestError(url: url, problem: problem)) {
            try ConfigurationCatalog(manifest: Data(text.utf8), source: url)
        }
    }
}
