import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

/// A custom string value whose parser is stricter than "any text", with the pattern a tool can check.
struct MoneyAmount: Hashable, ConfigurationValueStringRepresentable {
    var minorUnits: Int
    var currency: String

    init(minorUnits: Int, currency: String) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    init?(configurationValueString string: String) {
        let parts = string.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2, let amount = Int(parts[0]), amount >= 0, parts[1].count == 3,
            parts[1].allSatisfy({ $0.isASCII && $0.isUppercase })
        else { return nil }
        self.init(minorUnits: amount, currency: String(parts[1]))
    }

    var configurationValueString: String { "\(minorUnits) \(currency)" }
    static let configurationValueFormat = "AMOUNT CURRENCY such as 20 EUR"
    static let configurationValuePattern = ConfigurationValuePattern(
        "[0-9]+ [A-Z]{3}", format: configurationValueFormat)
}

extension ConfigurationScopes {
    struct Patterns: ConfigurationScope {
        let price: PriceKey
        enum PriceKey: ConfigurationKey {
            static let name = "test.pattern.price"
            static let defaultValue = MoneyAmount(minorUnits: 0, currency: "EUR")
        }

        let color: ColorKey
        enum ColorKey: ConfigurationKey {
            static let name = "test.pattern.color"
            static let defaultValue = "#06C755"
            static let valuePattern = ConfigurationValuePattern("#[0-9A-F]{6}", format: "#RRGGBB such as #06C755")
        }

        let handle: HandleKey
        enum HandleKey: ConfigurationKey {
            static let name = "test.pattern.handle"
            static let defaultValue = "qa"
            static let valuePattern = ConfigurationValuePattern("[a-z]+|[a-z]+_[0-9]+")
        }
    }
}

@Suite("Value patterns: the program and the manifest refuse the same strings with the same message")
struct ValuePatternTests {
    typealias Keys = ConfigurationScopes.Patterns

    @Test("the program's decode refuses a string the pattern does not match, naming the format")
    func program() {
        let service = LiveConfigurationService(serverValues: [
            Keys.PriceKey.name: "20 eur", Keys.ColorKey.name: "#06c755", Keys.HandleKey.name: "qa_7",
        ])
        #expect(
            service.resolution(of: Keys.PriceKey.self).rejections.map(\.reason) == [
                #"expected AMOUNT CURRENCY such as 20 EUR, got "20 eur""#
            ])
        #expect(
            service.resolution(of: Keys.ColorKey.self).rejections.map(\.reason) == [
                ##"expected #RRGGBB such as #06C755, got "#06c755""##
            ])
        #expect(service.resolution(of: Keys.HandleKey.self).source == .server, "an alternation matches as a whole")
    }

    @Test("typed descriptors and manifest descriptors agree on many strings, value and message")
    func programAndManifestAgree() throws {
        let catalog = try ConfigurationCatalog(scopes: [Keys.self])
        let restored = try ConfigurationCatalog(manifest: catalog.manifestJSON())
        var generator = SeededGenerator(seed: 16)
        let alphabet = Array("0123456789 AEURaeu#FCx_-\u{1}é")
        var samples = ["20 EUR", "20 eur", "0 USD", "-1 EUR", "#06C755", "#06c755", "qa", "qa_7", "qa_", "", "a\nb"]
        for _ in 0..<fuzzIterations(default: 2000) {
            samples.append(
                String(
                    (0..<Int.random(in: 0...9, using: &generator)).map { _ in
                        alphabet.randomElement(using: &generator)!
                    }))
        }
        for key in catalog.keys {
            let manifestKey = try #require(restored.descriptor(named: key.name))
            #expect(manifestKey.pattern == key.pattern)
            for sample in samples {
                let typed = outcome { try key.validate(sample) }
                let manifest = outcome { try manifestKey.validate(sample) }
                #expect(typed == manifest, "\(key.name) on \(VisibleTextEscape.quote(sample))")
            }
        }
    }

    @Test("a pattern that backtracks without end is stopped quickly and counts as no match")
    func catastrophicBacktracking() {
        let pattern = ConfigurationValuePattern("(a+)+")
        let hostile = String(repeating: "a", count: 40) + "b"
        let started = ContinuousClock.now
        #expect(throws: ConfigurationDecodingError.self) { try pattern.check(hostile) }
        #expect(ContinuousClock.now - started < .seconds(5), "the match was not bounded")
        #expect(throws: Never.self) { try pattern.check(String(repeating: "a", count: 40)) }
    }

    @Test("an expression cannot escape its anchors")
    func anchoring() {
        let pattern = ConfigurationValuePattern("a)|(.*")
        #expect(pattern.problem != nil)
        #expect(throws: ConfigurationDecodingError.self) { try pattern.check("anything") }
        #expect(throws: ConfigurationDecodingError.self) { try ConfigurationValuePattern("[0-9]+").check("12a") }
    }

    @Test("a manifest with an invalid pattern, or a format without a pattern, is refused with the place")
    func manifestRefusals() throws {
        func manifest(_ key: String) -> Data {
            Data(
                #"{"format": "service-configuration-manifest", "version": 1, "scopes": [{"name": "A", "keys": [\#(key)]}]}"#
                    .utf8)
        }
        let invalid = #expect(throws: ConfigurationManifestError.self) {
            try ConfigurationCatalog(
                manifest: manifest(#"{"name": "k", "control": {"kind": "text"}, "pattern": "[a-"}"#))
        }
        #expect(invalid?.problem.hasPrefix("scopes[0].keys[0].pattern: not a valid regular expression") == true)
        #expect(
            throws: ConfigurationManifestError(
                url: nil, problem: "scopes[0].keys[0].format: describes a pattern, but the key has none")
        ) {
            try ConfigurationCatalog(manifest: manifest(#"{"name": "k", "control": {"kind": "text"}, "format": "x"}"#))
        }
    }
}

/// `"ok: <value>"` or `"error: <message>"`, so two validators can be compared on values and messages at once.
func outcome(_ body: () throws -> String) -> String {
    do {
        return "ok: " + (try body())
    } catch {
        return "error: \(error)"
    }
}

/// Test-local quoting for failure messages.
enum VisibleTextEscape {
    static func quote(_ text: String) -> String { text.debugDescription }
}
