// expect: a key is declared in the body of a @ConfigurationScope struct; mark 'Search' @ConfigurationScope
// flags: macros
import ServiceConfigurationMacros

struct Search {
    @ConfigurationKey("search.page_size") static let searchPageSize = 20
}
