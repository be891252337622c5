import DemoConfiguration
import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

/// A JSON key with a schema that uses every JSON type.
struct JSONShape: Codable, Hashable, ConfigurationValueJSONRepresentable {
    var id: Int
    var ratio: Double
    var name: String
    var tags: [String]
    var flag: Bool
    var note: String?
    var counts: [String: Int]
    var nested: Nested

    struct Nested: Codable, Hashable {
        var level: Int
        var label: String
        var items: [Double]
    }
}

extension ConfigurationScopes {
    struct CanonicalJSON: ConfigurationScope {
        let shape: ShapeKey
        enum ShapeKey: ConfigurationKey {
            static let name = "test.json.shape"
            static let defaultValue = JSONShape(
                id: 1, ratio: 0.5, name: "a", tags: [], flag: false, note: nil, counts: [:],
                nested: .init(level: 0, label: "", items: []))
        }

        let freeForm: FreeFormKey
        enum FreeFormKey: ConfigurationKey {
            static let name = "test.json.free_form"
            static let defaultValue = ConfigurationJSONValue.object([:])
        }
    }
}

/// Writes JSON text the way people and other programs do: members in any order, spaces anywhere, numbers and
/// strings spelled in any of their equivalent forms.
struct JSONSpeller {
    var generator: SeededGenerator

    mutating func pick<T>(_ options: [T]) -> T { options.randomElement(using: &generator)! }
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &generator) < percent }
    mutating func space() -> String { pick(["", "", " ", "\n  ", "\t"]) }

    mutating func integer(_ value: Int) -> String {
        if value == 0, chance(30) { return pick(["-0", "0.0", "-0.0", "0e5"]) }
        // Foundation reads an Int written "9223372036854775807.0" through a Double and refuses it: beyond 2^53 a
        // program accepts only the plain spelling.
        if value.magnitude > 1 << 53 { return "\(value)" }
        switch Int.random(in: 0..<5, using: &generator) {
        case 0: return "\(value).0"
        case 1 where value % 1000 == 0 && value != 0: return "\(value / 1000)e3"
        case 2: return "\(value)E0"
        default: return "\(value)"
        }
    }

    mutating func double(_ value: Double) -> String {
        let shortest = "\(value)"
        switch Int.random(in: 0..<4, using: &generator) {
        case 0 where !shortest.contains("e"): return shortest.contains(".") ? shortest + "00" : shortest + ".000"
        case 1: return String(format: "%.17g", value)
        default: return shortest
        }
    }

    mutating func string(_ value: String) -> String {
        var text = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "/": text += chance(50) ? "\\/" : "/"
            case "\n": text += chance(50) ? "\\n" : "\\u000a"
            case "\t": text += "\\t"
            default:
                if scalar.value < 0x20 || (chance(20) && scalar.value < 0x10000) {
                    text += String(format: "\\u%04x", scalar.value)
                } else if scalar.value >= 0x10000, chance(50) {
                    let offset = scalar.value - 0x10000
                    text += String(format: "\\u%04X\\u%04X", 0xD800 + (offset >> 10), 0xDC00 + (offset & 0x3FF))
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        return text + "\""
    }

    mutating func object(_ members: [(String, String)]) -> String {
        var shuffled = members
        shuffled.shuffle(using: &generator)
        let body = shuffled.map { "\(space())\(string($0.0))\(space()):\(space())\($0.1)" }.joined(separator: ",")
        return "{" + body + space() + "}"
    }

    mutating func array(_ elements: [String]) -> String {
        "[" + elements.map { space() + $0 }.joined(separator: ",") + space() + "]"
    }

    mutating func randomString() -> String {
        let pieces = [
            "a", "é", "e\u{301}", "日本", "😀", "👨‍👩‍👧", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{7F}", "\u{2028}", " ",
        ]
        return (0..<Int.random(in: 0...6, using: &generator)).map { _ in pick(pieces) }.joined()
    }

    mutating func randomInteger() -> Int {
        pick([0, 1, -1, 7, 1000, 3000, 123_456_789, Int(Int32.max), 9_007_199_254_740_993, Int.max, Int.min])
    }

    mutating func randomDouble() -> Double {
        pick([
            0.5, 1.0, 3.0, 0.1, 0.30000000000000004, 2.5e-5, 1e20, 1.7976931348623157e308, Double.leastNonzeroMagnitude,
            -12.75, 1e3,
        ])
    }

    mutating func shape() -> String {
        var members: [(String, String)] = [
            ("id", integer(randomInteger())), ("ratio", double(randomDouble())), ("name", string(randomString())),
            ("tags", array((0..<Int.random(in: 0...3, using: &generator)).map { _ in string(randomString()) })),
            ("flag", pick(["true", "false"])),
            (
                "counts",
                object(
                    (0..<Int.random(in: 0...3, using: &generator)).map { _ in (randomString(), integer(randomInteger()))
                    })
            ),
            (
                "nested",
                object([
                    ("level", integer(randomInteger())), ("label", string(randomString())),
                    (
                        "items",
                        array((0..<Int.random(in: 0...3, using: &generator)).map { _ in double(randomDouble()) })
                    ),
                ])
            ),
        ]
        if chance(50) { members.append(("note", chance(50) ? "null" : string(randomString()))) }
        return space() + object(members) + space()
    }
}

@Suite("One canonical JSON form, whether the program or a manifest-only tool writes the value")
struct CanonicalJSONTests {
    typealias Keys = ConfigurationScopes.CanonicalJSON

    static func descriptors() throws -> (program: ConfigurationCatalog, manifest: ConfigurationCatalog) {
        let program = try ConfigurationCatalog(scopes: [Keys.self])
        return (program, try ConfigurationCatalog(manifest: program.manifestJSON()))
    }

    @Test("random spellings of schema values: the manifest's canonical string is the program's, byte for byte")
    func schemaValues() throws {
        let (program, manifest) = try Self.descriptors()
        let typed = try #require(program.descriptor(named: Keys.ShapeKey.name))
        let described = try #require(manifest.descriptor(named: Keys.ShapeKey.name))
        var speller = JSONSpeller(generator: SeededGenerator(seed: 9))
        let count = fuzzIterations(default: 1500)
        var accepted = 0
        for _ in 0..<count {
            let text = speller.shape()
            let expected = outcome { try typed.validate(text) }
            #expect(expected.hasPrefix("ok: "), "the program refused a generated value: \(text.debugDescription)")
            guard expected.hasPrefix("ok: ") else { continue }
            accepted += 1
            #expect(outcome { try described.validate(text) } == expected, "input \(text.debugDescription)")
        }
        #expect(accepted == count)
    }

    @Test(
        "numbers, escapes and unicode: the same bytes on both paths",
        arguments: [
            (#"{"b": 1.0, "a": 1e3}"#, #"{"a":1000,"b":1}"#),
            (#"{"z": -0, "y": -0.0, "n": null}"#, #"{"y":0,"z":0}"#),
            (#"{"list": [null, 1e20, 2.5000000000000001e-05]}"#, #"{"list":[null,1e+20,2.5e-05]}"#),
            (
                #"{"big": 9223372036854775807, "bigger": 18446744073709551615}"#,
                #"{"big":9223372036854775807,"bigger":18446744073709551615}"#
            ),
            (#"{"huge": 123456789012345678901234567890}"#, #"{"huge":123456789012345678901234567890}"#),
            (
                #"{"small": 2.5e-5, "third": 0.30000000000000004, "tenth": 0.1000}"#,
                #"{"small":2.5e-05,"tenth":0.1,"third":0.30000000000000004}"#
            ),
            (#"{"s": "a\/b \u00e9 \ud83d\ude00 \n \u0001 \"q\""}"#, #"{"s":"a/b é 😀 \n \u0001 \"q\""}"#),
            (
                #"{"outer": {"inner": [true, false, null, {"k": "v"}]}}"#,
                #"{"outer":{"inner":[true,false,null,{"k":"v"}]}}"#
            ),
        ]
    )
    func freeForm(input: String, canonical: String) throws {
        let (program, manifest) = try Self.descriptors()
        let typed = try #require(program.descriptor(named: Keys.FreeFormKey.name))
        let described = try #require(manifest.descriptor(named: Keys.FreeFormKey.name))
        #expect(outcome { try typed.validate(input) } == "ok: " + canonical)
        #expect(outcome { try described.validate(input) } == "ok: " + canonical)
    }

    @Test("the demo's JSON keys agree on their own server values and defaults")
    func demo() throws {
        let catalog = try DemoConfiguration.makeCatalog()
        let restored = try ConfigurationCatalog(manifest: catalog.manifestJSON())
        for key in catalog.keys where key.control == .json {
            let described = try #require(restored.descriptor(named: key.name))
            for raw in [DemoConfiguration.serverValues[key.name], key.defaultValueString].compactMap({ $0 }) {
                let spaced = raw.replacingOccurrences(of: ",", with: " , ")
                #expect(outcome { try described.validate(spaced) } == outcome { try key.validate(spaced) })
            }
        }
    }

    @Test("invalid JSON: both paths refuse it, with Foundation's reason")
    func invalid() throws {
        let (program, manifest) = try Self.descriptors()
        let described = try #require(manifest.descriptor(named: Keys.FreeFormKey.name))
        let typed = try #require(program.descriptor(named: Keys.FreeFormKey.name))
        for text in ["{", #"{"a":}"#, #"{"a":1} x"#, "", #"{"a": 1e400}"#, "[1, 2"] {
            #expect(outcome { try described.validate(text) }.hasPrefix("error: "), "\(text)")
            #expect(outcome { try typed.validate(text) }.hasPrefix("error: "), "\(text)")
        }
        // Foundation reads a trailing comma leniently; both paths do, and store the same.
        #expect(outcome { try described.validate(#"{"a":[1,],}"#) } == outcome { try typed.validate(#"{"a":[1,],}"#) })
        #expect(
            outcome { try described.validate("{") } == "error: not valid JSON: unexpected end of file during JSON parse"
        )
    }
}

@Suite("Manifest-only JSON validation says where a value is wrong")
struct GenericJSONMessageTests {
    @Test(
        "deep errors are reported where they are",
        arguments: [
            (#"[1, 1e400]"#, "invalid JSON value: at [1]: a number no Double can hold"),
            (#"{"a": {"b": [true, 1e999]}}"#, "invalid JSON value: at a.b[1]: a number no Double can hold"),
            (
                String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
                "not valid JSON: too many nested"
            ),
        ]
    )
    func messages(text: String, prefix: String) throws {
        let validate = try #require(
            try ConfigurationCatalog(
                manifest: Data(
                    #"{"format": "service-configuration-manifest", "version": 1, "scopes": [{"name": "A", "keys": [{"name": "j", "control": {"kind": "json"}}]}]}"#
                        .utf8)
            ).descriptor(named: "j"))
        let result = outcome { try validate.validate(text) }
        #expect(result.hasPrefix("error: " + prefix), "\(result)")
    }
}
