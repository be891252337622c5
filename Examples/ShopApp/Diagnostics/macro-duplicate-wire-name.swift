// expect: the wire name "search.page_size" is already the name of 'searchPageSize' in this scope; each key needs its own
// flags: macros
import ServiceConfigurationMacros

@ConfigurationScope
struct Search {
    @ConfigurationKey("search.page_size") static let searchPageSize = 20
    @ConfigurationKey("search.page_size") static let searchResultsPerPage = 20
}
