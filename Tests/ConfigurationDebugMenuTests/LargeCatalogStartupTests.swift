import Foundation
import ServiceConfiguration
import SharedTestSupport
import Testing

@testable import ConfigurationDebugMenu

/// The menu's start on a large catalog: its table holds every key's texts, and the statuses read on one thread
/// while the table is built on another are the table's keys', changes made meanwhile included.
@Suite("The menu's start on a large catalog: the table, and the statuses read while it is built")
struct LargeCatalogStartupTests {
    /// Name and title pieces: ASCII either case, Latin with accents, CJK, an emoji, a combining mark.
    static let pieces = ["Upload", "sync", "MODE", "é", "日本", "👍", "e\u{301}", "limit", "Ab_9", "x"]

    /// A manifest of about `keys` keys in scopes of random sizes (one of a single key, one as large as a quarter),
    /// with random names, titles and summaries built from ``pieces``; its catalog.
    static func catalog(keys: Int, seed: UInt64) throws -> ConfigurationCatalog {
        var generator = SeededGenerator(seed: seed)
        func word() -> String {
            (0..<Int.random(in: 1...3, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                .joined()
        }
        var sizes = [1, keys / 4]
        while sizes.reduce(0, +) < keys { sizes.append(Int.random(in: 1...900, using: &generator)) }
        sizes.shuffle(using: &generator)
        var scopes: [[String: Any]] = []
        var serial = 0
        for (index, size) in sizes.enumerated() {
            // Most scopes share a prefix up to a dot; some do not.
            let prefix = index % 3 == 0 ? "" : "function.\(word()).\(index)."
            let keys: [[String: Any]] = (0..<size).map { _ in
                serial += 1
                var key: [String: Any] = [
                    "name": "\(prefix)\(word()).\(serial)", "control": ["kind": "text"], "default": "",
                ]
                if Bool.random(using: &generator) { key["title"] = "\(word()) \(word())" }
                if Bool.random(using: &generator) { key["summary"] = "\(word()) \(word()) \(word())" }
                return key
            }
            scopes.append(["name": "\(word()) \(index)", "keys": keys])
        }
        let document: [String: Any] = ["format": "service-configuration-manifest", "version": 1, "scopes": scopes]
        return try ConfigurationCatalog(manifest: JSONSerialization.data(withJSONObject: document))
    }

    /// `text`'s UTF-8, ASCII letters lower-cased.
    static func lowered(_ text: String) -> [UInt8] {
        text.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
    }

    @Test("a table finds each key's descriptor and scope, scopes of one key included; without summaries, no offsets")
    func keysOfEveryScope() throws {
        var generator = SeededGenerator(seed: 0x4B45_5953)
        var scopes: [[String: Any]] = []
        var expected: [(name: String, scope: Int)] = []
        for scope in 0..<40 {
            // Scopes of one key to eight (a catalog has no empty scope).
            let count = scope % 5 == 0 ? 1 : Int.random(in: 1..<9, using: &generator)
            let keys: [[String: Any]] = (0..<count).map { key in
                expected.append(("s\(scope).k\(key)", scope))
                return ["name": "s\(scope).k\(key)", "control": ["kind": "text"]]
            }
            scopes.append(["name": "Scope \(scope)", "keys": keys])
        }
        let document: [String: Any] = ["format": "service-configuration-manifest", "version": 1, "scopes": scopes]
        let catalog = try ConfigurationCatalog(manifest: JSONSerialization.data(withJSONObject: document))
        let table = KeyTable(catalog: catalog)
        #expect(table.keys.count == expected.count && expected.count > 60)
        #expect(table.scopes.count == 40)
        for (index, key) in expected.enumerated() {
            #expect(table.keys[index].descriptor.name == key.name, "key \(index)")
            #expect(table.keys[index].scope == key.scope, "key \(index)")
            #expect(table.scopes[key.scope].range.contains(index), "key \(index)")
            #expect(table.summary(of: index).isEmpty, "key \(index)")
        }
        #expect(table.keys.map(\.descriptor.name) == expected.map(\.name))
        #expect(table.summaryOffsets.isEmpty && table.summaryText.isEmpty)
    }

    @Test("the table of a 6,000-key catalog has every key's search text, bounds, summary and widths (seeded)")
    func tableHoldsEveryKey() throws {
        let catalog = try Self.catalog(keys: 6_000, seed: 0x5EED_2701)
        let table = KeyTable(catalog: catalog)
        #expect(table.scopes.count == catalog.scopes.count)
        // Offsets that go back or past the end would trap below: checked first.
        // This catalog's keys have summaries, some of them: the table keeps their offsets.
        #expect(catalog.scopes.contains { $0.keys.contains { $0.summary != nil } })
        for offsets in [(table.searchOffsets, table.searchText.count), (table.summaryOffsets, table.summaryText.count)]
        {
            try #require(offsets.0.count == catalog.keyCount + 1 && offsets.0.first == 0 && offsets.0.last == offsets.1)
            try #require(zip(offsets.0, offsets.0.dropFirst()).allSatisfy { $0 <= $1 }, "offsets never go back")
        }
        var row = 0
        var widest = (title: 0, name: 0, shortName: 0)
        for (scopeIndex, scope) in catalog.scopes.enumerated() {
            let shown = table.scopes[scopeIndex]
            #expect(shown.name == scope.name)
            #expect(shown.range == row..<(row + scope.keys.count), "scope \(scopeIndex)'s rows follow the last's")
            #expect(shown.namePrefix == KeyTable.commonPrefix(scope.keys.map(\.name)))
            for descriptor in scope.keys {
                #expect(table.keys[row].descriptor.name == descriptor.name)
                #expect(table.keys[row].scope == scopeIndex)
                var expected = Self.lowered(descriptor.title)
                if !expected.isEmpty { expected.append(1) }
                let nameStart = expected.count
                expected += Self.lowered(descriptor.name)
                let nameEnd = expected.count
                if !expected.isEmpty { expected.append(1) }
                expected += Self.lowered(scope.name)
                let text = Array(table.searchText[table.searchOffsets[row]..<table.searchOffsets[row + 1]])
                if text != expected || table.nameBounds[2 * row] != nameStart
                    || table.nameBounds[2 * row + 1] != nameEnd
                {
                    Issue.record("key \(row) (\(descriptor.name)): search text or name bounds wrong")
                    return
                }
                #expect(Array(table.summary(of: row)) == Self.lowered(descriptor.summary ?? ""), "key \(row)'s summary")
                #expect(
                    Array(table.defaultValueBytes(of: row)) == Array((descriptor.defaultValueString ?? "").utf8),
                    "key \(row)'s default")
                let nameWidth = TextWidth.of(descriptor.name)
                widest.title = max(widest.title, TextWidth.of(descriptor.title))
                widest.name = max(widest.name, nameWidth)
                widest.shortName = max(widest.shortName, nameWidth - shown.namePrefix.count)
                row += 1
            }
        }
        #expect(row == table.keys.count)
        #expect(table.searchOffsets.count == row + 1 && table.searchOffsets.last == table.searchText.count)
        #expect(table.summaryOffsets.count == row + 1 && table.summaryOffsets.last == table.summaryText.count)
        #expect(table.widestTitle == widest.title)
        #expect(table.widestName == widest.name)
        #expect(table.widestShortName == widest.shortName)
        // Every key is found by name at its row.
        for probe in stride(from: 0, to: row, by: 997) {
            #expect(table.index(of: table.keys[probe].descriptor.name) == probe)
        }
    }

    @Test(
        "with nothing but defaults every status is the default's; one server value, launch value or override alone is each seen",
        arguments: ["none", "server", "launch", "override"])
    func statusesOfOneLayerAlone(layer: String) throws {
        let catalog = try Self.catalog(keys: 500, seed: 0x5EED_2704)
        let names = catalog.scopes.flatMap { $0.keys.map(\.name) }
        let key = names[names.count / 2]
        let value = "1"  // every key of this catalog is text
        var options = LiveConfigurationService.Options(publishesProgramReport: false)
        if layer == "launch" { options.launchOverrides = ConfigurationLaunchOverrides([key: value]) }
        let service = LiveConfigurationService(
            serverValues: layer == "server" ? [key: value] : [:], catalog: catalog,
            overrideStore: InMemoryOverrideStore(
                entries: layer == "override" ? [key: OverrideEntry(value: value)] : [:]),
            overridePolicy: .allBuilds, options: options)
        let data = MenuDataSource(catalog: catalog, service: service).initialData(label: layer)
        let reading = ConfigurationLayersReading(service: service)
        #expect(data.statuses.count == names.count)
        #expect(
            data.statuses.indices.first { data.statuses[$0] != reading.status(of: data.table.keys[$0].descriptor) }
                == nil, "the first key whose status is not the reading's")
        let status = data.statuses[try #require(data.table.index(of: key))]
        #expect((status.source == .default) == (layer == "none"), "\(layer): \(status.source)")
    }

    @Test("statuses read while the table is built are each key's; a change made after them reaches the first update")
    func statusesReadWhileTheTableIsBuilt() throws {
        let catalog = try Self.catalog(keys: 6_000, seed: 0x5EED_2702)
        let names = catalog.scopes.flatMap { $0.keys.map(\.name) }
        // The first and last key, each side of the middle, and a spread between.
        let touched =
            [0, names.count / 2 - 1, names.count / 2, names.count - 1]
            + Array(stride(from: 7, to: names.count, by: 401))
        var entries: [String: OverrideEntry] = [:]
        var server: [String: String] = [:]
        for (order, index) in touched.enumerated() {
            if order % 2 == 0 { entries[names[index]] = OverrideEntry(value: "override \(index)") }
            if order % 3 != 1 { server[names[index]] = "server \(index)" }
        }
        let service = LiveConfigurationService(
            serverValues: server, catalog: catalog, overrideStore: InMemoryOverrideStore(entries: entries))
        let source = MenuDataSource(catalog: catalog, service: service)
        let changed = names.count - 2
        #expect(!touched.contains(changed))
        // After the source read every status, before the first frame takes them.
        try service.setOverride(rawValue: "changed meanwhile", forKeyNamed: names[changed])
        let data = source.initialData(label: "large")
        #expect(data.table.keys.map(\.descriptor.name) == names)
        let reading = ConfigurationLayersReading(service: service)
        var expected = data.table.keys.map { reading.status(of: $0.descriptor) }
        #expect(expected[changed].override?.value == "changed meanwhile")
        expected[changed] = ConfigurationKeyStatus(
            data.table.keys[changed].descriptor, serverValue: server[names[changed]], override: nil)
        #expect(data.statuses.count == names.count)
        #expect(
            data.statuses.indices.first { data.statuses[$0] != expected[$0] } == nil,
            "the first key whose status differs from the reading before the change")
        for index in touched {
            #expect(data.statuses[index].serverValue == server[names[index]])
            #expect(data.statuses[index].override?.value == entries[names[index]]?.value)
        }
        #expect(data.overrideCount == entries.count)
        // The change made after the reading is the first update's.
        let update = try #require(source.takeUpdate(), "the change made meanwhile is an update")
        #expect(update.statuses[changed]?.override?.value == "changed meanwhile")
    }

    @Test("a scope's name prefix: every name starts with it as characters, and it is the longest that does (seeded)")
    func namePrefixFuzz() {
        var generator = SeededGenerator(seed: 0x5EED_2703)
        // Dots followed by ASCII, by a combining mark (which joins the dot's character), by CJK and emoji.
        let parts = ["a", "b", "Upload", ".", ".", ".", ".\u{301}", ".\u{301}x", "日本", "👍", "é", "e\u{301}", ".x"]
        for _ in 0..<3_000 {
            let stem = (0..<Int.random(in: 0...4, using: &generator)).map { _ in parts.randomElement(using: &generator)!
            }
            .joined()
            let names = (0..<Int.random(in: 2...5, using: &generator)).map { _ in
                stem
                    + (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                        parts.randomElement(using: &generator)!
                    }.joined()
            }
            let prefix = KeyTable.commonPrefix(names)
            // The longest start of the first name, cut after a dot, that every name starts with as bytes and as
            // characters, and that leaves something of every name.
            let first = Array(names[0].utf8)
            var longest = ""
            for end in first.indices where first[end] == UInt8(ascii: ".") {
                let candidate = String(decoding: first[...end], as: UTF8.self)
                if names.allSatisfy({ $0.utf8.starts(with: candidate.utf8) && $0.hasPrefix(candidate) }) {
                    longest = candidate
                }
            }
            if names.contains(where: { $0.utf8.count == longest.utf8.count }) { longest = "" }
            if !prefix.isEmpty {
                #expect(
                    names.allSatisfy { $0.hasPrefix(prefix) }, "\(names.debugDescription) -> \(prefix.debugDescription)"
                )
            }
            if prefix != longest {
                Issue.record("\(names.debugDescription): \(prefix.debugDescription), not \(longest.debugDescription)")
                return
            }
        }
    }
}

extension KeyTable {
    /// ``commonPrefix(of:)`` of keys with these names, packed in one scope as a catalog keeps them.
    static func commonPrefix(_ names: [String]) -> String {
        commonPrefix(
            of: ConfigurationCatalog.Scope(
                name: "S",
                keys: names.map {
                    ConfigurationKeyDescriptor(
                        name: $0, scopeName: "S", title: "", valueTypeName: "String", control: .text,
                        defaultValueString: nil, validate: { $0 })
                }
            ).keys)
    }
}
