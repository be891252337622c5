import ServiceConfiguration
import ServiceConfigurationFileStore
import Testing

extension ConfigurationScopes {
    /// Declares `flag`, as `Fixture` does: `service.flag` is ambiguous where both are visible.
    struct SameProperty: ConfigurationScope {
        let flag: OtherFlagKey
        enum OtherFlagKey: ConfigurationKey {
            static let name = "test.same_property.flag.enabled"
            static let defaultValue = false
        }
    }

    /// The old spelling of the description, in both forms people wrote it.
    struct Legacy: ConfigurationScope {
        let legacyOptional: OptionalKey
        enum OptionalKey: ConfigurationKey {
            static let name = "test.legacy.optional"
            static let defaultValue = 1
            static let debugDescription: String? = "written before the rename"
        }
    }

    struct LegacyInferred: ConfigurationScope {
        let legacyInferred: InferredKey
        enum InferredKey: ConfigurationKey {
            static let name = "test.legacy.inferred"
            static let defaultValue = 1
            static let debugDescription = "an inferred String"
        }
    }

    struct Summaries: ConfigurationScope {
        let inferred: InferredKey
        enum InferredKey: ConfigurationKey {
            static let name = "test.summary.inferred"
            static let defaultValue = 1
            static let summary = "an inferred String"
        }

        let optional: OptionalKey
        enum OptionalKey: ConfigurationKey {
            static let name = "test.summary.optional"
            static let defaultValue = 1
            static let summary: String? = "an explicit String?"
        }

        let computed: ComputedKey
        enum ComputedKey: ConfigurationKey {
            static let name = "test.summary.computed"
            static let defaultValue = 1
            static var summary: String { "computed" }
        }

        let none: NoneKey
        enum NoneKey: ConfigurationKey {
            static let name = "test.summary.none"
            static let defaultValue = 1
        }
    }

    struct BadBoolEncoding: ConfigurationScope {
        let sameStrings: SameStringsKey
        enum SameStringsKey: ConfigurationKey {
            static let name = "test.bad.same_strings"
            static let defaultValue = false
            static let boolEncoding = ConfigurationBoolEncoding(true: "x", false: "x")
        }
    }

    struct BoolEncodingOnInt: ConfigurationScope {
        let count: CountKey
        enum CountKey: ConfigurationKey {
            static let name = "test.bad.count"
            static let defaultValue = 1
            static let boolEncoding = ConfigurationBoolEncoding.trueFalse
        }
    }

    /// Defaults the key's own codec cannot carry.
    struct NotANumberDefault: ConfigurationScope {
        let ratio: RatioKey
        enum RatioKey: ConfigurationKey {
            static let name = "test.bad_default.ratio"
            static let defaultValue = Double.nan
        }
    }

    struct LowercaseCurrencyDefault: ConfigurationScope {
        let price: PriceKey
        enum PriceKey: ConfigurationKey {
            static let name = "test.bad_default.price"
            static let defaultValue = MoneyAmount(minorUnits: 100, currency: "eur")
        }
    }

    struct LossyDefault: ConfigurationScope {
        let share: ShareKey
        enum ShareKey: ConfigurationKey {
            static let name = "test.bad_default.share"
            static let defaultValue = Percentage(fraction: 0.125)
        }
    }

    struct UnencodableDefault: ConfigurationScope {
        let token: TokenKey
        enum TokenKey: ConfigurationKey {
            static let name = "test.bad_default.token"
            static let defaultValue = "secret"
            static func encode(_ value: String) throws -> String? { nil }
        }
    }

    struct BadPattern: ConfigurationScope {
        let code: CodeKey
        enum CodeKey: ConfigurationKey {
            static let name = "test.bad.code"
            static let defaultValue = "A"
            static let valuePattern = ConfigurationValuePattern("[A-Z")
        }
    }
}

/// A value that keeps two decimals of a percentage on the wire: 0.125 travels as "12" and comes back as 0.12.
struct Percentage: Hashable, ConfigurationValueStringRepresentable {
    var fraction: Double
    init(fraction: Double) { self.fraction = fraction }
    init?(configurationValueString string: String) {
        guard let percent = Int(string) else { return nil }
        fraction = Double(percent) / 100
    }
    var configurationValueString: String { String(Int(fraction * 100)) }
}

@Suite("Key declarations a catalog refuses instead of ignoring")
struct DeclarationCheckTests {
    @Test("the same property name in two scopes is refused, naming both scopes and the fix")
    func propertyCollision() {
        let error = #expect(throws: ConfigurationError.self) {
            try ConfigurationCatalog(scopes: [ConfigurationScopes.Fixture.self, ConfigurationScopes.SameProperty.self])
        }
        #expect(error == .duplicatePropertyName("flag", firstScope: "Fixture", secondScope: "SameProperty"))
        #expect(error?.description.contains("fixtureFlag and samePropertyFlag") == true)
    }

    @Test("a wire name declared twice in one scope says so once, not \"A and A\"")
    func sameScopeTwice() {
        let error = ConfigurationError.duplicateKeyName("k", firstScope: "A", secondScope: "A")
        #expect(error.description == "key name \"k\" is declared twice in scope A; wire names must be unique")
    }

    @Test(
        "a key still declaring debugDescription, typed or inferred, is refused with the new name",
        arguments: [
            (ConfigurationScopes.Legacy.self as any ConfigurationScope.Type, "test.legacy.optional"),
            (ConfigurationScopes.LegacyInferred.self, "test.legacy.inferred"),
        ]
    )
    func legacyDescription(scope: any ConfigurationScope.Type, key: String) {
        #expect(
            throws: ConfigurationError.invalidDeclaration(
                key: key, problem: "`debugDescription` was renamed `summary`; write `static let summary = \"…\"`")
        ) {
            try ConfigurationCatalog(scopes: [scope])
        }
    }

    @Test("summary: an inferred String, an explicit String?, a computed property; none is nil")
    func summaries() throws {
        let catalog = try ConfigurationCatalog(scopes: [ConfigurationScopes.Summaries.self])
        #expect(catalog.keys.map(\.summary) == ["an inferred String", "an explicit String?", "computed", nil])
        let restored = try ConfigurationCatalog(manifest: catalog.manifestJSON())
        #expect(restored.keys.map(\.summary) == catalog.keys.map(\.summary))
        #expect(String(decoding: catalog.manifestJSON(), as: UTF8.self).contains(#""summary":"computed""#))
    }

    @Test("a Bool encoding with one string for both values, or on a key that is not Bool, is refused")
    func boolEncodings() {
        #expect(throws: ConfigurationError.self) {
            try ConfigurationCatalog(scopes: [ConfigurationScopes.BadBoolEncoding.self])
        }
        let error = #expect(throws: ConfigurationError.self) {
            try ConfigurationCatalog(scopes: [ConfigurationScopes.BoolEncodingOnInt.self])
        }
        #expect(
            error?.description == "key test.bad.count: boolEncoding applies only to Bool keys; this key's value is Int")
    }

    @Test(
        "a default its own codec cannot encode, or that does not come back from its wire string, is refused at build",
        arguments: [
            (
                ConfigurationScopes.NotANumberDefault.self as any ConfigurationScope.Type,
                "key test.bad_default.ratio: the default value does not round-trip: it encodes to \"nan\", which the "
                    + "key refuses (expected a finite number, got \"nan\")"
            ),
            (
                ConfigurationScopes.LowercaseCurrencyDefault.self,
                "key test.bad_default.price: the default value does not round-trip: it encodes to \"100 eur\", which "
                    + "the key refuses (expected AMOUNT CURRENCY such as 20 EUR, got \"100 eur\")"
            ),
            (
                ConfigurationScopes.LossyDefault.self,
                "key test.bad_default.share: the default value does not round-trip: it encodes to \"12\", which "
                    + "decodes to a different value"
            ),
            (
                ConfigurationScopes.UnencodableDefault.self,
                "key test.bad_default.token: the default value has no wire form (encode(_:) returns nil for it), so "
                    + "no tool can show or restore it"
            ),
        ]
    )
    func unencodableDefault(scope: any ConfigurationScope.Type, message: String) {
        let error = #expect(throws: ConfigurationError.self) { try ConfigurationCatalog(scopes: [scope]) }
        #expect(error?.description == message)
    }

    @Test("a pattern that is not a regular expression is refused at catalog build, and rejects every value")
    func badPattern() {
        let error = #expect(throws: ConfigurationError.self) {
            try ConfigurationCatalog(scopes: [ConfigurationScopes.BadPattern.self])
        }
        #expect(
            error?.description.hasPrefix("key test.bad.code: valuePattern /[A-Z/ is not a valid regular expression")
                == true)
        let service = LiveConfigurationService(serverValues: [ConfigurationScopes.BadPattern.CodeKey.name: "B"])
        let resolution = service.resolution(of: ConfigurationScopes.BadPattern.CodeKey.self)
        #expect(resolution.source == .default)
        #expect(resolution.rejections.first?.reason.contains("not a valid regular expression") == true)
    }
}
