import Foundation
import ServiceConfiguration
import Testing

extension ConfigurationScopes {
    struct Bounded: ConfigurationScope {
        let boundedDelay: DelayKey
        enum DelayKey: ConfigurationKey {
            static let name = "test.bounded.delay_sec"
            static let defaultValue = 5
            static var debugControlType: ConfigurationDebugControlType<Int> { .number(range: 1...60, step: 5) }
        }

        let boundedRatio: RatioKey
        enum RatioKey: ConfigurationKey {
            static let name = "test.bounded.ratio"
            static let defaultValue = 0.5
            static var debugControlType: ConfigurationDebugControlType<Double> { .number(range: 0...1, step: 0.1) }
        }

        let boundedTiny: TinyKey
        enum TinyKey: ConfigurationKey {
            static let name = "test.bounded.tiny"
            static let defaultValue: Int8 = 1
        }
    }
}

/// Numbers with a range and a step: declared by a key, kept by the descriptor and the manifest, refused outside.
@Suite("Bounded numbers")
struct BoundedNumberTests {
    let catalog = try! ConfigurationCatalog(scopes: [ConfigurationScopes.Bounded.self])

    @Test("a declared range is checked when a tool validates a value; inside passes, canonical")
    func declared() throws {
        let delay = try #require(catalog.descriptor(named: "test.bounded.delay_sec"))
        #expect(delay.control == .number(.integer, ConfigurationNumberRange(minimum: "1", maximum: "60", step: "5")))
        #expect(try delay.validate("060") == "60")
        #expect(throws: ConfigurationDecodingError("expected an integer from 1 to 60, got \"61\"")) {
            try delay.validate("61")
        }
        let ratio = try #require(catalog.descriptor(named: "test.bounded.ratio"))
        #expect(throws: ConfigurationDecodingError.self) { try ratio.validate("1.5") }
        #expect(try ratio.validate("1") == "1.0")
    }

    @Test("an integer key gets its type's bounds: an Int8 key refuses 300, also from a manifest")
    func typeBounds() throws {
        let tiny = try #require(catalog.descriptor(named: "test.bounded.tiny"))
        #expect(tiny.control.numberRange == ConfigurationNumberRange(minimum: "-128", maximum: "127", step: "1"))
        #expect(throws: ConfigurationDecodingError.self) { try tiny.validate("300") }
        let fromManifest = try ConfigurationCatalog(manifest: catalog.manifestJSON())
        let manifestTiny = try #require(fromManifest.descriptor(named: "test.bounded.tiny"))
        #expect(manifestTiny.control == tiny.control, "the manifest carries the bounds")
        #expect(throws: ConfigurationDecodingError.self) { try manifestTiny.validate("300") }
        let manifestDelay = try #require(fromManifest.descriptor(named: "test.bounded.delay_sec"))
        #expect(throws: ConfigurationDecodingError("expected an integer from 1 to 60, got \"61\"")) {
            try manifestDelay.validate("61")
        }
        #expect(try manifestDelay.validate("60") == "60")
    }

    @Test("stepping stays in the range; 64-bit bounds keep every digit")
    func stepping() {
        let range = ConfigurationNumberRange(minimum: "1", maximum: "60", step: "5")
        #expect(range.stepped("5", by: 1, kind: .integer) == "10")
        #expect(range.stepped("58", by: 1, kind: .integer) == "60")
        #expect(range.stepped("3", by: -1, kind: .integer) == "1")
        let ratio = ConfigurationNumberRange(minimum: "0.0", maximum: "1.0", step: "0.1")
        #expect(ratio.stepped("0.2", by: 1, kind: .floatingPoint) == "0.3")
        let whole = ConfigurationNumberRange(minimum: "0", maximum: String(UInt64.max), step: "1")
        #expect(whole.stepped(String(UInt64.max - 1), by: 5, kind: .integer) == String(UInt64.max))
        #expect(whole.problem(with: String(UInt64.max)) == nil)
        #expect(whole.problem(with: "18446744073709551616") != nil)
    }

    @Test("a manifest with a bad range is refused, naming the field")
    func badManifest() throws {
        var text = String(decoding: catalog.manifestJSON(), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"minimum\":\"1\"", with: "\"minimum\":\"99\"")
        #expect(text.contains("\"99\""), "the manifest spells the range as expected: \(text.prefix(400))")
        #expect(throws: ConfigurationManifestError.self) { try ConfigurationCatalog(manifest: Data(text.utf8)) }
    }
}
