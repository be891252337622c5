import DemoConfiguration
import Foundation
import ServiceConfiguration
import SharedTestSupport
import Testing

@testable import ConfigurationDebugMenu

@Suite("Exact and prefix matches first, read from the search text")
struct ExactFirstTests {
    /// The ordering as it was written first, on the descriptors' strings: the reference the table-based one must
    /// agree with.
    static func reference(
        _ keys: [Int], query: String, table: KeyTable, statuses: [ConfigurationKeyStatus]
    ) -> [Int] {
        func fold(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }
        let needle = Array(query.trimmingCharacters(in: .whitespaces).utf8).map(fold)
        guard !needle.isEmpty else { return keys }
        func startMatch(_ text: Substring.UTF8View) -> Int {
            let folded = text.map(fold)
            guard folded.starts(with: needle) else { return 0 }
            return folded.count == needle.count ? 2 : 1
        }
        var groups: [[Int]] = [[], [], []]
        for key in keys {
            let descriptor = table.keys[key].descriptor
            var texts = [descriptor.title[...], descriptor.name[...]]
            if let dot = descriptor.name.lastIndex(of: ".") {
                texts.append(descriptor.name[descriptor.name.index(after: dot)...])
            }
            if let value = statuses[key].value { texts.append(value[...]) }
            groups[2 - (texts.map { startMatch($0.utf8) }.max() ?? 0)].append(key)
        }
        return groups.flatMap { $0 }
    }

    @Test("seeded fuzz: hostile titles, names, scopes and values order the same as on the strings")
    func agreesWithStrings() throws {
        var generator = SeededGenerator(seed: 0x4558_4143_54)
        let pieces = ["a", "B", "ab", "AB", ".", "\u{1}", " ", "é", "É", "x.y", "opus", "OPUS", "", "\u{1}.", "z"]
        func text(_ count: Int) -> String {
            (0..<Int.random(in: 0...count, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                .joined()
        }
        for _ in 0..<fuzzIterations(default: 300) {
            var scopes: [ConfigurationCatalog.Scope] = []
            var used: Set<String> = []
            for scopeIndex in 0..<Int.random(in: 1...3, using: &generator) {
                let scopeName = "S\(scopeIndex)" + text(2)
                var keys: [ConfigurationKeyDescriptor] = []
                for keyIndex in 0..<Int.random(in: 1...6, using: &generator) {
                    let name = text(4) + "k\(scopeIndex)_\(keyIndex)" + text(3)
                    guard used.insert(name).inserted else { continue }
                    keys.append(
                        ConfigurationKeyDescriptor(
                            name: name, scopeName: scopeName, title: text(4), valueTypeName: "String",
                            control: .text, defaultValueString: Bool.random(using: &generator) ? text(3) : nil,
                            validate: { $0 }))
                }
                scopes.append(ConfigurationCatalog.Scope(name: scopeName, keys: keys))
            }
            let catalog = try ConfigurationCatalog(scopes: scopes)
            let table = KeyTable(catalog: catalog)
            // Some keys keep their default (its value comes from the descriptor), others are overridden.
            let statuses = KeyStatuses(
                table: table,
                statuses: table.keys.map { key in
                    ConfigurationKeyStatus(
                        key.descriptor, serverValue: nil,
                        override: Bool.random(using: &generator) ? OverrideEntry(value: text(3), setAt: nil) : nil)
                })
            #expect(statuses.contains { $0.source == .overridden } || table.keys.count < 4)
            let keys = Array(table.keys.indices).shuffled(using: &generator)
            let queries = [text(3), " " + text(2) + " "] + table.keys.prefix(2).map { $0.descriptor.title }
            for query in queries {
                let ordered = KeyList.exactFirst(
                    keys, query: query, table: table, statuses: statuses, shouldStop: { false })
                #expect(
                    ordered == Self.reference(keys, query: query, table: table, statuses: Array(statuses)),
                    "query \(query.debugDescription), names \(table.keys.map(\.descriptor.name))")
            }
        }
    }
}

@Suite("Searching by what a key holds")
struct TextSearchFieldTests {
    @Test("a key's default is found as it is and as the screen shows it; a key without one, or overridden, is not")
    func defaults() throws {
        let text = #"""
            {"format": "service-configuration-manifest", "version": 1, "scopes": [{"name": "A", "keys": [
              {"name": "a.plain", "control": {"kind": "text"}, "default": "Quokka Park"},
              {"name": "a.hidden", "control": {"kind": "text"}, "default": "zero\u200Bwidth\ttab"},
              {"name": "a.none", "control": {"kind": "text"}},
              {"name": "a.overridden", "control": {"kind": "text"}, "default": "quokka"}
            ]}]}
            """#
        let table = KeyTable(catalog: try ConfigurationCatalog(manifest: Data(text.utf8)))
        var list = table.keys.map { ConfigurationKeyStatus($0.descriptor, serverValue: nil, override: nil) }
        list[3] = ConfigurationKeyStatus(
            table.keys[3].descriptor, serverValue: nil, override: OverrideEntry(value: "wombat", setAt: nil))
        let statuses = KeyStatuses(table: table, statuses: list)
        #expect(statuses.isDefault(at: 0) && statuses.isDefault(at: 1) && !statuses.isDefault(at: 3))
        #expect(TextSearch(query: "quokka park").match(0, table: table, statuses: statuses) == .value)
        #expect(TextSearch(query: "QUOKKA").match(0, table: table, statuses: statuses) == .value)
        #expect(TextSearch(query: "zero\\u{200b}width").match(1, table: table, statuses: statuses) == .value)
        #expect(TextSearch(query: "width\\ttab").match(1, table: table, statuses: statuses) == .value)
        #expect(TextSearch(query: "zerowidth").match(1, table: table, statuses: statuses) == nil)
        #expect(TextSearch(query: "quokka").match(2, table: table, statuses: statuses) == nil)
        // The override is the value now, not the default.
        #expect(TextSearch(query: "quokka").match(3, table: table, statuses: statuses) == nil)
        #expect(TextSearch(query: "wombat").match(3, table: table, statuses: statuses) == .value)
    }

    @Test("each field is searched in turn: description, value, server value, note; shown escapes count")
    func fields() throws {
        let catalog = try DemoConfiguration.synthetic(keys: 40, scopes: 2).catalog
        let table = KeyTable(catalog: catalog)
        var list = table.keys.map { ConfigurationKeyStatus($0.descriptor, serverValue: nil, override: nil) }
        let descriptor = table.keys[3].descriptor
        list[3] = ConfigurationKeyStatus(
            descriptor, serverValue: "Quokka\u{200B}Server", override: OverrideEntry(value: "Y", setAt: nil))
        list[5] = ConfigurationKeyStatus(
            table.keys[5].descriptor, serverValue: nil,
            override: OverrideEntry(value: "N", setAt: nil, note: "ticket PAY-981 wombat"))
        let statuses = KeyStatuses(table: table, statuses: list)
        #expect(TextSearch(query: "quokka").match(3, table: table, statuses: statuses) == .server)
        #expect(TextSearch(query: "kka\\u{200b}ser").match(3, table: table, statuses: statuses) == .server)
        #expect(TextSearch(query: "quokka").match(4, table: table, statuses: statuses) == nil)
        #expect(TextSearch(query: "WOMBAT pay-981").match(5, table: table, statuses: statuses) == .note)
        #expect(TextSearch(query: "wombat quokka").match(5, table: table, statuses: statuses) == nil)
    }
}
