import DemoConfiguration
import Foundation
import ServiceConfiguration
import ServiceConfigurationCore
import SharedTestSupport
import Testing

/// A command that names its keys (or one scope) reads only their part of a manifest; whatever it reads must be what
/// reading the whole manifest gives for those keys, and anything it cannot vouch for must make it read the whole.
@Suite("Manifest selection: reading one key or scope of a manifest gives what the whole read gives for it")
struct ManifestSelectionTests {
    /// The keys of `catalog` that `selection` names, in their scopes, as a manifest (`nil`: none).
    private static func restriction(of catalog: ConfigurationCatalog, to selection: ManifestSelection) throws -> String?
    {
        let scopes = catalog.scopes.compactMap { scope -> ConfigurationCatalog.Scope? in
            let keys: [ConfigurationKeyDescriptor]
            switch selection {
            case .keys(let names): keys = scope.keys.filter { names.contains($0.name) }
            case .scope(let name): keys = scope.name.lowercased() == name.lowercased() ? scope.keys : []
            }
            return keys.isEmpty ? nil : ConfigurationCatalog.Scope(name: scope.name, keys: keys)
        }
        guard !scopes.isEmpty else { return nil }
        var restricted = try ConfigurationCatalog(scopes: scopes)
        restricted.requiresOwners = catalog.requiresOwners
        return String(decoding: restricted.manifestJSON(), as: UTF8.self)
    }

    private static func selected(_ bytes: [UInt8], _ selection: ManifestSelection) -> String? {
        ConfigurationCatalog(manifestBytes: bytes, selecting: selection).map {
            String(decoding: $0.manifestJSON(), as: UTF8.self)
        }
    }

    private static let header = #"{"format":"service-configuration-manifest","version":1,"scopes":["#

    @Test("every key and every scope of the demo catalog, alone and together, reads as the whole read has it")
    func everyKeyAndScope() throws {
        let catalog = try DemoConfiguration.makeCatalog()
        let bytes = [UInt8](catalog.manifestJSON())
        for key in catalog.keys {
            let selection = ManifestSelection.keys([key.name])
            let expected = try #require(try Self.restriction(of: catalog, to: selection))
            #expect(Self.selected(bytes, selection) == expected, "\(key.name)")
        }
        for scope in catalog.scopes {
            for name in [scope.name, scope.name.uppercased(), scope.name.lowercased()] {
                let selection = ManifestSelection.scope(name)
                #expect(
                    Self.selected(bytes, selection) == (try Self.restriction(of: catalog, to: selection)), "\(name)")
            }
        }
        let several = ManifestSelection.keys(
            Set(catalog.keys.map(\.name).enumerated().filter { $0.0 % 3 == 0 }.map(\.1)))
        let expected = try #require(try Self.restriction(of: catalog, to: several))
        #expect(Self.selected(bytes, several) == expected)
        #expect(try #require(ConfigurationCatalog(manifestBytes: bytes, selecting: several)).requiresOwners)
    }

    @Test("a name the manifest lacks (alone or beside one it has), or a document not in the plain form: read it whole")
    func nothingSelected() throws {
        let bytes = [UInt8](try DemoConfiguration.makeCatalog().manifestJSON())
        #expect(Self.selected(bytes, .keys(["function.album.like.enable"])) == nil)
        #expect(Self.selected(bytes, .keys(["function.album.like.enable", "function.album.like.enabled"])) == nil)
        #expect(Self.selected(bytes, .keys([])) == nil)
        #expect(Self.selected(bytes, .scope("Albu")) == nil)
        // A byte-order mark, a trailing byte, a cut: the selection gives up and the whole read says what is wrong.
        let name = "function.album.like.enabled"
        #expect(Self.selected([0xEF, 0xBB, 0xBF] + bytes, .keys([name])) == nil)
        #expect(Self.selected(bytes + Array("x".utf8), .keys([name])) == nil)
        #expect(Self.selected(Array(bytes.dropLast(3)), .keys([name])) == nil)
    }

    @Test("a selected key the whole read refuses, or one named twice, is not read alone")
    func refusedSelection() throws {
        let badDefault = #"{"control":{"kind":"number","number":"integer"},"default":"x","name":"a.count"}"#
        let good = #"{"control":{"kind":"text"},"name":"a.text","title":"Text"}"#
        let document = Array((Self.header + #"{"keys":[\#(badDefault),\#(good)],"name":"A"}]}"#).utf8)
        #expect(throws: ConfigurationManifestError.self) { try ConfigurationCatalog(manifest: Data(document)) }
        #expect(Self.selected(document, .keys(["a.count"])) == nil)
        #expect(Self.selected(document, .scope("a")) == nil)
        // The other key reads alone: the selection checks the rest for form only (the whole read, which the menu
        // and `list` do, refuses the document).
        let alone = try #require(ConfigurationCatalog(manifestBytes: document, selecting: .keys(["a.text"])))
        #expect(alone.keys.map(\.name) == ["a.text"])
        #expect(alone.descriptor(named: "a.text")?.title == "Text")
        let twice = Array(
            (Self.header + #"{"keys":[\#(good)],"name":"A"},{"keys":[\#(good)],"name":"B"}]}"#).utf8)
        #expect(Self.selected(twice, .keys(["a.text"])) == nil)
        // A skipped key without a name, or with a name that is not a string, is not the manifest's outline.
        for odd in [#"{"control":{"kind":"text"}}"#, #"{"control":{"kind":"text"},"name":7}"#, "7"] {
            let text = Array((Self.header + #"{"keys":[\#(odd),\#(good)],"name":"A"}]}"#).utf8)
            #expect(Self.selected(text, .keys(["a.text"])) == nil, "\(odd)")
        }
    }

    @Test("names written with escapes or outside ASCII are found by what they say")
    func escapedNames() throws {
        let key = #"{"control":{"kind":"text"},"name":"a\u002etext"}"#
        let other = #"{"control":{"kind":"text"},"name":"é.text"}"#
        let document = Array(
            (Self.header + #"{"keys":[\#(key),\#(other)],"name":"Älbum"}]}"#).utf8)
        #expect(try #require(ConfigurationCatalog(manifestBytes: document, selecting: .keys(["a.text"]))).keyCount == 1)
        #expect(try #require(ConfigurationCatalog(manifestBytes: document, selecting: .keys(["é.text"]))).keyCount == 1)
        #expect(try #require(ConfigurationCatalog(manifestBytes: document, selecting: .scope("äLBUM"))).keyCount == 2)
        #expect(Self.selected(document, .keys(["a\\u002etext"])) == nil)
    }

    @Test("seeded fuzz: a selection of an edited manifest is nothing, or what the whole read gives for it")
    func fuzz() throws {
        let catalog = try DemoConfiguration.makeCatalog()
        let base = [UInt8](catalog.manifestJSON())
        var generator = SeededGenerator(seed: 0x5345_4C45_4354)
        var compared = 0
        for iteration in 0..<fuzzIterations(default: 400) {
            var text = base
            for _ in 0..<Int.random(in: 0...2, using: &generator) {
                let place = Int.random(in: 0..<text.count, using: &generator)
                switch Int.random(in: 0...2, using: &generator) {
                case 0: text.remove(at: place)
                case 1: text.insert(Array(#"{}[],:"\ 0-e.n"#.utf8).randomElement(using: &generator)!, at: place)
                default: text[place] = UInt8.random(in: 0...255, using: &generator)
                }
            }
            let selection: ManifestSelection =
                Bool.random(using: &generator)
                ? .keys([catalog.keys.randomElement(using: &generator)!.name])
                : .scope(catalog.scopes.randomElement(using: &generator)!.name.uppercased())
            let selected = Self.selected(text, selection)
            guard let whole = try? ConfigurationCatalog(manifest: Data(text)) else { continue }
            let expected = try Self.restriction(of: whole, to: selection)
            if let selected {
                #expect(selected == expected, "iteration \(iteration): \(String(decoding: text, as: UTF8.self))")
                compared += 1
            }
        }
        #expect(compared > 100, "most documents were read both ways, so the comparison covered something")
    }
}

/// A manifest file of a megabyte or more is read on two threads: a helper reads the scopes from near the middle, and
/// its work counts only when the first thread arrives exactly where it started.
@Suite("Manifest reading on two threads: the same catalog as one thread, whatever the document")
struct ManifestSharedReadTests {
    private static func outcome(_ bytes: [UInt8]) -> String {
        let whole = try? ConfigurationCatalog(manifestBytes: bytes, source: nil)
        return whole.map { String(decoding: $0.manifestJSON(), as: UTF8.self) } ?? "refused"
    }

    /// The single-threaded reading of the same bytes (`Data` is always read on one thread).
    private static func reference(_ bytes: [UInt8]) -> String {
        let whole = try? ConfigurationCatalog(manifest: Data(bytes))
        return whole.map { String(decoding: $0.manifestJSON(), as: UTF8.self) } ?? "refused"
    }

    private static let large = {
        [UInt8](try! DemoConfiguration.synthetic(keys: 8_000, scopes: 80).catalog.manifestJSON())
    }()

    @Test("a large manifest is read with the helper, to the catalog one thread reads; a small one without it")
    func sameCatalog() throws {
        #expect(Self.large.count > 1 << 20)
        #expect(ConfigurationCatalog.manifestReadIsShared(Self.large) == true)
        #expect(Self.outcome(Self.large) == String(decoding: Self.large, as: UTF8.self))
        let small = [UInt8](try DemoConfiguration.makeCatalog().manifestJSON())
        #expect(ConfigurationCatalog.manifestReadIsShared(small) == false)
    }

    @Test("where the helper's guess is not a scope (inside a key's unknown member), its work is dropped")
    func wrongGuess() throws {
        // Every scope boundary is written on one line, so the only ",\n{"keys":[" left is the decoy inside a key.
        var text = String(decoding: Self.large, as: UTF8.self).replacingOccurrences(
            of: ",\n{\"keys\":[", with: ",{\"keys\":[")
        let middle = text.index(text.startIndex, offsetBy: text.utf8.count * 3 / 4)
        let key = try #require(text[middle...].range(of: "{\"control\":"))
        let decoy = #"{"keys":[{"control":{"kind":"text"},"name":"decoy.key"}],"name":"Decoy"}"#
        text.insert(contentsOf: "\"x\":[1,\n\(decoy)],", at: text.index(after: key.lowerBound))
        let bytes = Array(text.utf8)
        #expect(ConfigurationCatalog.manifestReadIsShared(bytes) == false)
        #expect(Self.outcome(bytes) == Self.reference(bytes))
        #expect(Self.outcome(bytes) != "refused")
    }

    @Test("seeded fuzz: byte edits anywhere give what one thread gives, refusals included")
    func fuzz() throws {
        var generator = SeededGenerator(seed: 0x7368_6172_6564)
        var shared = 0
        for iteration in 0..<fuzzIterations(default: 24) {
            var text = Self.large
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                // Edits near the helper's start, where a mistake would show, or anywhere.
                let place =
                    Bool.random(using: &generator)
                    ? Int.random(in: (text.count / 2)..<(text.count / 2 + 4096), using: &generator)
                    : Int.random(in: 0..<text.count, using: &generator)
                switch Int.random(in: 0...2, using: &generator) {
                case 0: text.remove(at: place)
                case 1: text.insert(Array(#"{}[],:"\ 0-e.n"#.utf8).randomElement(using: &generator)!, at: place)
                default: text[place] = UInt8.random(in: 0...255, using: &generator)
                }
            }
            if ConfigurationCatalog.manifestReadIsShared(text) == true { shared += 1 }
            #expect(Self.outcome(text) == Self.reference(text), "iteration \(iteration)")
        }
        #expect(shared > 0, "some edited documents were still read with the helper")
    }
}
