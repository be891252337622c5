import Foundation
import ServiceConfiguration
import SharedTestSupport
import Testing

@Suite("Catalog: the name index and what a manifest's descriptor keeps")
struct CatalogNameIndexTests {
    private static func descriptor(_ name: String) -> ConfigurationKeyDescriptor {
        ConfigurationKeyDescriptor(
            name: name, scopeName: "", title: name, valueTypeName: "String", control: .text, defaultValueString: nil,
            validate: { $0 })
    }

    /// A name from a small alphabet, so that names share prefixes and hashes are all that tells many apart; some
    /// with an accent written precomposed (NFC), which ``decomposed(_:)`` writes as two characters.
    private static func randomName(_ generator: inout SeededGenerator) -> String {
        let pieces = ["a", "b", ".", "é", "z", "1", "ü", "ナ", "👍"]
        return (0..<Int.random(in: 1...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
            .joined()
    }

    /// The name with `é` and `ü` written decomposed: a different string of bytes, the same `String`.
    private static func decomposed(_ name: String) -> String {
        name.replacingOccurrences(of: "é", with: "e\u{301}").replacingOccurrences(of: "ü", with: "u\u{308}")
    }

    @Test("seeded fuzz: every key is found where it is, canonically equivalent names alike, others are not found")
    func findsEveryKey() throws {
        for seed in 0..<UInt64(fuzzIterations(default: 60)) {
            var generator = SeededGenerator(seed: seed)
            var seen: Set<String> = []
            var scopes: [ConfigurationCatalog.Scope] = []
            for scopeIndex in 0..<Int.random(in: 1...30, using: &generator) {
                var keys: [ConfigurationKeyDescriptor] = []
                while keys.isEmpty || (keys.count < 80 && Int.random(in: 0..<10, using: &generator) > 0) {
                    let name = Self.randomName(&generator)
                    if seen.insert(name).inserted { keys.append(Self.descriptor(name)) }
                }
                scopes.append(.init(name: "S\(scopeIndex)", keys: keys))
            }
            let catalog = try ConfigurationCatalog(scopes: scopes)
            #expect(catalog.keyCount == seen.count, "seed \(seed)")
            for (scopeIndex, scope) in scopes.enumerated() {
                for (keyIndex, key) in scope.keys.enumerated() {
                    let position = catalog.position(of: Self.decomposed(key.name))
                    #expect(position?.scope == scopeIndex && position?.key == keyIndex, "seed \(seed): \(key.name)")
                    #expect(catalog.descriptor(named: key.name)?.name == key.name, "seed \(seed)")
                }
            }
            for _ in 0..<200 {
                let name = Self.randomName(&generator)
                #expect((catalog.descriptor(named: name) != nil) == seen.contains(name), "seed \(seed): \(name)")
            }
        }
    }

    @Test("seeded fuzz: a name two keys share is refused, naming the first key's scope and the second's")
    func refusesDuplicates() {
        for seed in 0..<UInt64(fuzzIterations(default: 60)) {
            var generator = SeededGenerator(seed: seed)
            var seen: [String: Int] = [:]
            var scopes: [[String]] = []
            for scopeIndex in 0..<Int.random(in: 2...20, using: &generator) {
                var names: [String] = []
                for _ in 0..<Int.random(in: 1...40, using: &generator) {
                    let name = Self.randomName(&generator)
                    if seen[name] == nil {
                        seen[name] = scopeIndex
                        names.append(name)
                    }
                }
                if names.isEmpty { names.append("unique.\(scopeIndex)") }
                scopes.append(names)
            }
            // A copy of an earlier key's name, written decomposed, in a later place.
            let first = Int.random(in: 0..<scopes.count - 1, using: &generator)
            let original = scopes[first].randomElement(using: &generator)!
            let second = Int.random(in: first + 1..<scopes.count, using: &generator)
            let copy = Self.decomposed(original)
            scopes[second].insert(copy, at: Int.random(in: 0...scopes[second].count, using: &generator))
            let error = #expect(throws: ConfigurationError.self, "seed \(seed)") {
                try ConfigurationCatalog(
                    scopes: scopes.enumerated().map { .init(name: "S\($0)", keys: $1.map(Self.descriptor)) })
            }
            #expect(
                error == .duplicateKeyName(copy, firstScope: "S\(first)", secondScope: "S\(second)"), "seed \(seed)")
        }
    }

    @Test("seeded fuzz: a scope keeps each key's name and title byte for byte, however long or odd")
    func keepsNamesAndTitles() throws {
        var generator = SeededGenerator(seed: 0x7061_636B)
        let pieces = [
            "a", ".", "\0", "\u{1}", "é", "e\u{301}", "👍", "\u{212A}", "ナ", String(repeating: "x", count: 70_000),
        ]
        func text() -> String {
            (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                // The long piece rarely: a name or title past 65,535 bytes now and then.
                Int.random(in: 0..<40, using: &generator) == 0
                    ? pieces[pieces.count - 1] : pieces[Int.random(in: 0..<pieces.count - 1, using: &generator)]
            }.joined()
        }
        for round in 0..<fuzzIterations(default: 40) {
            let given = (0..<Int.random(in: 1...60, using: &generator)).map { index in
                ConfigurationKeyDescriptor(
                    name: "\(index)" + text(), scopeName: "", title: text(), valueTypeName: "String", control: .text,
                    defaultValueString: nil, validate: { $0 })
            }
            let scope = ConfigurationCatalog.Scope(name: "S", keys: given)
            for (key, original) in zip(scope.keys, given) {
                #expect(Array(key.name.utf8) == Array(original.name.utf8), "round \(round)")
                #expect(Array(key.title.utf8) == Array(original.title.utf8), "round \(round)")
                key.withNameAndTitleUTF8 { name, title in
                    #expect(Array(name) == Array(original.name.utf8) && Array(title) == Array(original.title.utf8))
                }
                #expect(key.hasName(original.name) && key.scopeName == "S")
            }
        }
    }

    @Test("seeded fuzz: hasName agrees with comparing the names as strings, canonically equivalent spellings included")
    func hasNameAgreesWithEquality() {
        var generator = SeededGenerator(seed: 0x6861_734E)
        // Each pair is one name spelled two ways: é, a Kelvin sign and K, a Greek question mark and a semicolon, an
        // Angstrom sign and Å.
        let pieces = ["a", "K", "\u{212A}", ";", "\u{037E}", "é", "e\u{301}", "\u{212B}", "\u{C5}", ".", "\0"]
        for _ in 0..<fuzzIterations(default: 3_000) {
            let name = (0..<Int.random(in: 0...5, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }
            .joined()
            let other = (0..<Int.random(in: 0...5, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }
            .joined()
            let key = ConfigurationCatalog.Scope(name: "S", keys: [Self.descriptor(name)]).keys[0]
            #expect(
                key.hasName(other) == (name == other),
                "\(name.unicodeScalars.map(\.value)) / \(other.unicodeScalars.map(\.value))")
            #expect(key.hasName(name))
        }
    }

    @Test("an empty catalog finds nothing and counts nothing")
    func empty() throws {
        let catalog = try ConfigurationCatalog(scopes: [ConfigurationCatalog.Scope]())
        #expect(catalog.keyCount == 0)
        #expect(catalog.descriptor(named: "") == nil)
        #expect(catalog.descriptor(named: "a") == nil)
    }

    @Test(
        "a manifest's pickers with equal choices share one list; each descriptor keeps its own control, range and strings"
    )
    func manifestDescriptorsShareChoices() throws {
        let choices = #"[{"value": "off", "title": "Off"}, {"value": "on", "title": "On"}]"#
        let text = #"""
            {"format": "service-configuration-manifest", "version": 1, "scopes": [
              {"name": "A", "keys": [
                {"name": "a.one", "control": {"kind": "picker", "choices": \#(choices)}, "default": "off"},
                {"name": "a.two", "control": {"kind": "picker", "choices": \#(choices)}, "default": "on"},
                {"name": "a.other", "control": {"kind": "picker", "choices": [{"value": "off", "title": "Off"}]}},
                {"name": "a.flag", "control": {"kind": "toggle", "on": "true", "off": "false"}, "default": "false"},
                {"name": "a.letter", "control": {"kind": "toggle"}, "default": "N"},
                {"name": "a.count", "type": "Int",
                 "control": {"kind": "number", "number": "integer", "minimum": "1", "maximum": "9", "step": "2"}},
                {"name": "a.again", "type": "Int",
                 "control": {"kind": "number", "number": "integer", "minimum": "1", "maximum": "9", "step": "2"}},
                {"name": "a.wider", "type": "Int",
                 "control": {"kind": "number", "number": "integer", "minimum": "0", "maximum": "99"}}
              ]}
            ]}
            """#
        let catalog = try ConfigurationCatalog(manifest: Data(text.utf8))
        func choiceList(_ name: String) -> [ConfigurationDebugControl.Choice] {
            guard case .picker(let list) = catalog.descriptor(named: name)?.control else { return [] }
            return list
        }
        func base(_ list: [ConfigurationDebugControl.Choice]) -> UnsafeRawPointer? {
            list.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        }
        #expect(choiceList("a.one").map(\.value) == ["off", "on"])
        #expect(base(choiceList("a.one")) != nil && base(choiceList("a.one")) == base(choiceList("a.two")))
        #expect(choiceList("a.other").map(\.value) == ["off"])
        #expect(base(choiceList("a.other")) != base(choiceList("a.one")))

        let flag = try #require(catalog.descriptor(named: "a.flag"))
        #expect(flag.toggleStrings == .init(on: "true", off: "false"))
        #expect(try flag.validate("true") == "true")
        #expect(throws: ConfigurationDecodingError.self) { try flag.validate("Y") }
        let letter = try #require(catalog.descriptor(named: "a.letter"))
        #expect(letter.toggleStrings == .standard)
        #expect(throws: ConfigurationDecodingError.self) { try letter.validate("true") }

        let count = try #require(catalog.descriptor(named: "a.count"))
        #expect(count.control == .number(.integer, .init(minimum: "1", maximum: "9", step: "2")))
        #expect(try count.validate("07") == "7")
        #expect(throws: ConfigurationDecodingError.self) { try count.validate("11") }
        #expect(catalog.descriptor(named: "a.again")?.control == count.control)
        let wider = try #require(catalog.descriptor(named: "a.wider"))
        #expect(wider.control == .number(.integer, .init(minimum: "0", maximum: "99", step: "1")))
        #expect(try wider.validate("11") == "11")
        let two = try #require(catalog.descriptor(named: "a.two"))
        #expect(throws: ConfigurationDecodingError.self) { try two.validate("maybe") }
        #expect(try two.validate("on") == "on")
    }

    @Test(
        "a manifest's keys that differ in type, control, toggle strings, pattern or format each keep theirs"
    )
    func manifestKeysOfOneKindDifferWhereTheyDiffer() throws {
        let keys = [
            #"{"name": "k.plain", "control": {"kind": "text"}, "default": "a"}"#,
            #"{"name": "k.same", "control": {"kind": "text"}, "default": "b"}"#,
            #"{"name": "k.typed", "type": "Path", "control": {"kind": "text"}}"#,
            #"{"name": "k.json", "control": {"kind": "json"}}"#,
            #"{"name": "k.digits", "control": {"kind": "text"}, "pattern": "[0-9]+"}"#,
            #"{"name": "k.letters", "control": {"kind": "text"}, "pattern": "[a-z]+"}"#,
            #"{"name": "k.lettersNamed", "control": {"kind": "text"}, "pattern": "[a-z]+", "format": "letters"}"#,
            #"{"name": "k.yes", "control": {"kind": "toggle", "on": "yes", "off": "no"}, "default": "no"}"#,
            #"{"name": "k.one", "control": {"kind": "toggle", "on": "1", "off": "0"}, "default": "0"}"#,
            #"{"name": "k.yn", "control": {"kind": "toggle"}, "default": "N"}"#,
            #"{"name": "k.small", "type": "Int", "control": {"kind": "number", "number": "integer", "minimum": "0", "maximum": "9"}}"#,
            #"{"name": "k.big", "type": "Int", "control": {"kind": "number", "number": "integer", "minimum": "0", "maximum": "99"}}"#,
            #"{"name": "k.ratio", "type": "Double", "control": {"kind": "number", "number": "floatingPoint"}}"#,
        ]
        let text =
            #"{"format": "service-configuration-manifest", "version": 1, "scopes": [{"name": "K", "keys": ["#
            + keys.joined(separator: ",\n") + "]}]}"
        let handWritten = try ConfigurationCatalog(manifest: Data(text.utf8))
        // The writer's own form, which the fast reader takes.
        let written = try ConfigurationCatalog(manifest: handWritten.manifestJSON())
        for catalog in [handWritten, written] {
            func key(_ name: String) throws -> ConfigurationKeyDescriptor {
                try #require(catalog.descriptor(named: name))
            }
            #expect(try key("k.plain").defaultValueString == "a")
            #expect(try key("k.same").defaultValueString == "b")
            #expect(try key("k.plain").valueTypeName == "String")
            #expect(try key("k.typed").valueTypeName == "Path")
            #expect(try key("k.json").control == .json)
            #expect(try key("k.plain").control == .text)
            #expect(try key("k.plain").pattern == .any)
            #expect(try key("k.digits").pattern.regularExpression == "[0-9]+")
            #expect(try key("k.letters").pattern.regularExpression == "[a-z]+")
            #expect(try key("k.letters").pattern.format == nil)
            #expect(try key("k.lettersNamed").pattern.format == "letters")
            #expect(try key("k.digits").validate("42") == "42")
            #expect(throws: ConfigurationDecodingError.self) { try key("k.digits").validate("abc") }
            #expect(try key("k.letters").validate("abc") == "abc")
            #expect(throws: ConfigurationDecodingError.self) { try key("k.letters").validate("42") }
            #expect(try key("k.yes").toggleStrings == .init(on: "yes", off: "no"))
            #expect(try key("k.one").toggleStrings == .init(on: "1", off: "0"))
            #expect(try key("k.yn").toggleStrings == .standard)
            #expect(try key("k.one").validate("1") == "1")
            #expect(throws: ConfigurationDecodingError.self) { try key("k.yes").validate("1") }
            #expect(try key("k.small").control == .number(.integer, .init(minimum: "0", maximum: "9", step: "1")))
            #expect(try key("k.big").control == .number(.integer, .init(minimum: "0", maximum: "99", step: "1")))
            #expect(throws: ConfigurationDecodingError.self) { try key("k.small").validate("50") }
            #expect(try key("k.big").validate("50") == "50")
            #expect(try key("k.ratio").valueTypeName == "Double")
            #expect(try key("k.ratio").validate("0.5") == "0.5")
        }
    }
}
