// expect: 'Search' is an enum, and a configuration scope is a struct (its keys are stored properties): make 'Search' a struct
// flags: macros
import ServiceConfigurationMacros

@ConfigurationScope
enum Search {
    @ConfigurationKey("search.page_size") static let searchPageSize = 20
}
