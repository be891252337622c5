import Foundation
import ServiceConfiguration
import Testing

/// Which catalog's key the service uses when several catalogs, or a typed key and a catalog, name the same key: the
/// first catalog is looked up through its own index, later ones and learned keys through the service's.
@Suite("Registering catalogs: the last catalog with a key wins, a catalog wins over a key learned from a read")
struct CatalogRegistrationTests {
    typealias LimitKey = ConfigurationScopes.Unlisted.LimitKey

    /// A one-scope catalog from a manifest whose key `name` has `control`.
    static func catalog(scope: String, keys: [(name: String, control: String)]) throws -> ConfigurationCatalog {
        let listed = keys.map { #"{"name": "\#($0.name)", "control": \#($0.control), "default": "1"}"# }
        let text = #"""
            {"format": "service-configuration-manifest", "version": 1,
             "scopes": [{"name": "\#(scope)", "keys": [\#(listed.joined(separator: ", "))]}]}
            """#
        return try ConfigurationCatalog(manifest: Data(text.utf8))
    }

    static let picker = #"{"kind": "picker", "choices": [{"value": "1"}, {"value": "2"}]}"#
    static let text = #"{"kind": "text"}"#

    @Test("two catalogs naming one key: the later one's key is used; names of both are known")
    func laterCatalogWins() throws {
        let service = LiveConfigurationService(
            catalog: try Self.catalog(scope: "First", keys: [("shared.key", Self.picker), ("first.only", Self.text)]))
        #expect(throws: ConfigurationError.self) {
            try service.setOverride(rawValue: "free", forKeyNamed: "shared.key")
        }
        service.register(
            try Self.catalog(scope: "Second", keys: [("shared.key", Self.text), ("second.only", Self.picker)]))
        try service.setOverride(rawValue: "free", forKeyNamed: "shared.key")
        #expect(service.resolution(forKeyNamed: "shared.key")?.value == "free")
        try service.setOverride(rawValue: "anything", forKeyNamed: "first.only")
        #expect(throws: ConfigurationError.self) { try service.setOverride(rawValue: "3", forKeyNamed: "second.only") }
        // An unknown name is refused with the nearest names of both catalogs.
        #expect(Self.suggestions(for: "second.onl", in: service).contains("second.only"))
        #expect(Self.suggestions(for: "first.onl", in: service).contains("first.only"))
    }

    /// The names an override of the unknown key `name` is refused with; none (and an issue) if it is not refused so.
    static func suggestions(for name: String, in service: LiveConfigurationService) -> [String] {
        do {
            try service.setOverride(rawValue: "1", forKeyNamed: name)
        } catch let error as ConfigurationError {
            if case .unknownKey(_, let suggestions) = error { return suggestions }
            Issue.record("not unknownKey: \(error)")
        } catch {
            Issue.record("not a ConfigurationError: \(error)")
        }
        Issue.record("\(name) was not refused as unknown")
        return []
    }

    @Test("a key learned from a typed write, then the first catalog with that name: the catalog's key is used")
    func catalogWinsOverLearned() throws {
        let service = LiveConfigurationService()
        // The typed key (an Int) is learned: any integer is a valid raw value.
        try service.setOverride(5, for: LimitKey.self)
        try service.setOverride(rawValue: "9", forKeyNamed: LimitKey.name)
        service.register(try Self.catalog(scope: "Limits", keys: [(LimitKey.name, Self.picker)]))
        #expect(throws: ConfigurationError.self) { try service.setOverride(rawValue: "9", forKeyNamed: LimitKey.name) }
        try service.setOverride(rawValue: "2", forKeyNamed: LimitKey.name)
        #expect(service.resolution(forKeyNamed: LimitKey.name)?.value == "2")
        #expect(service.readCoverage().unregistered.isEmpty, "the key is registered now")
    }
}
