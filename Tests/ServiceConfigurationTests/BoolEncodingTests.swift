import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationTesting
import Testing

extension ConfigurationScopes {
    struct Encodings: ConfigurationScope {
        let trueFalse: TrueFalseKey
        enum TrueFalseKey: ConfigurationKey {
            static let name = "test.bool.true_false"
            static let defaultValue = false
            static let boolEncoding = ConfigurationBoolEncoding.trueFalse
        }

        let oneZero: OneZeroKey
        enum OneZeroKey: ConfigurationKey {
            static let name = "test.bool.one_zero"
            static let defaultValue = true
            static let boolEncoding = ConfigurationBoolEncoding.oneZero
        }

        let custom: CustomKey
        enum CustomKey: ConfigurationKey {
            static let name = "test.bool.custom"
            static let defaultValue = false
            static let boolEncoding = ConfigurationBoolEncoding(true: "enabled", false: "disabled")
        }
    }
}

extension ConfigurationDynamicLookup {
    subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.Encodings, K>) -> K {
        self[K.self]
    }
}

@Suite("Bool wire encodings, one declaration per key")
struct BoolEncodingTests {
    typealias Keys = ConfigurationScopes.Encodings

    @Test(
        "each preset decodes exactly its two strings and encodes to them",
        arguments: [
            (ConfigurationBoolEncoding.letterYN, "Y", "N"), (.trueFalse, "true", "false"), (.oneZero, "1", "0"),
            (.yesNo, "yes", "no"), (.onOff, "on", "off"),
        ]
    )
    func presets(encoding: ConfigurationBoolEncoding, on: String, off: String) throws {
        #expect(try encoding.decode(on) == true)
        #expect(try encoding.decode(off) == false)
        #expect(encoding.encode(true) == on && encoding.encode(false) == off)
        for wrong in [on.uppercased(), on.lowercased(), on.capitalized, "", " \(on)", "\(off) ", "maybe"]
        where wrong != on && wrong != off {
            #expect(throws: ConfigurationDecodingError(expected: "\(on) or \(off)", got: wrong)) {
                try encoding.decode(wrong)
            }
        }
    }

    @Test("the live service decodes the key's encoding and reports others, never silently defaulting")
    func live() throws {
        let service = LiveConfigurationService(serverValues: [
            Keys.TrueFalseKey.name: "true", Keys.OneZeroKey.name: "Y", Keys.CustomKey.name: "enabled",
        ])
        #expect(service.trueFalse == true)
        #expect(service.custom == true)
        let resolution = service.resolution(of: \.oneZero)
        #expect(resolution.value == true && resolution.source == .default)
        #expect(resolution.rejections.map(\.reason) == [#"expected 1 or 0, got "Y""#])
        try service.setOverride(false, for: \.trueFalse)
        #expect(service.overrides[Keys.TrueFalseKey.name] == "false")
        #expect(throws: ConfigurationError.self) {
            try service.setOverride(rawValue: "N", forKeyNamed: Keys.TrueFalseKey.name)
        }
    }

    @Test("the toggle's strings and the manifest follow the key's encoding")
    func toggleAndManifest() throws {
        let catalog = try ConfigurationCatalog(scopes: [Keys.self])
        #expect(
            catalog.keys.map(\.toggleStrings) == [
                .init(on: "true", off: "false"), .init(on: "1", off: "0"), .init(on: "enabled", off: "disabled"),
            ])
        #expect(catalog.keys.map(\.defaultValueString) == ["false", "1", "disabled"])
        let restored = try ConfigurationCatalog(manifest: catalog.manifestJSON())
        let key = try #require(restored.descriptor(named: Keys.TrueFalseKey.name))
        #expect(key.toggleStrings == .init(on: "true", off: "false"))
        #expect(try key.validate("true") == "true")
        #expect(throws: ConfigurationDecodingError(expected: "true or false", got: "Y")) { try key.validate("Y") }
    }

    @Test("the mock's setter writes the key's encoding")
    func mock() {
        let mock = MockConfigurationService(scopes: [Keys.self])
        mock.trueFalse = true
        mock.oneZero = false
        #expect(mock.serverValues == [Keys.TrueFalseKey.name: "true", Keys.OneZeroKey.name: "0"])
        #expect(mock.trueFalse && !mock.oneZero)
    }
}
