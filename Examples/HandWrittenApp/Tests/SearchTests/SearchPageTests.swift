import Search
import ServiceConfiguration
import ServiceConfigurationTesting
import Testing

@Suite("Search, with hand-written keys, tested with the mock")
struct SearchPageTests {
    typealias Search = ConfigurationScopes.Search

    @Test("the page follows the keys: defaults, server values in the key's own encoding, overrides")
    func page() throws {
        let mock = MockConfigurationService(scopes: [Search.self])
        #expect(SearchPage(configuration: mock) == SearchPage(size: 20, order: "best match first", suggests: true))
        mock.searchSuggestionsEnabled = false
        #expect(mock.serverValues[Search.SuggestionsEnabledKey.name] == "off", "the key's on/off encoding")
        try mock.setOverride(SearchRanking.recency, for: \.searchRanking)
        try mock.setOverride(rawValue: "30", forKeyNamed: "search.page_size")
        #expect(SearchPage(configuration: mock) == SearchPage(size: 30, order: "newest first", suggests: false))
    }

    @Test("values the keys refuse fall back to the default, with the reason")
    func refused() {
        let mock = MockConfigurationService(scopes: [Search.self])
        mock.setServerValue(rawValue: "EU", for: \.searchRegion)
        #expect(mock.searchRegion == "eu")
        #expect(
            mock.resolution(of: \.searchRegion).rejections.map(\.reason) == [
                #"expected two lower-case letters, got "EU""#
            ])
        #expect(throws: ConfigurationError.self) {
            try mock.setOverride(rawValue: "105", forKeyNamed: "search.page_size")
        }
    }

    @Test("the catalog lists the hand-written keys with their controls")
    func catalog() throws {
        let catalog = try ConfigurationCatalog(scopes: [Search.self])
        #expect(
            catalog.keys.map(\.name) == [
                "search.suggestions.enabled", "search.page_size", "search.ranking", "search.region",
            ])
        #expect(catalog.keys.map(\.control.kindName) == ["toggle", "number (integer)", "picker", "text"])
    }
}
