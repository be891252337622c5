// expect: a key's default cannot change: declare it 'static let', not 'static var'
// flags: macros
import ServiceConfigurationMacros

@ConfigurationScope
struct Search {
    @ConfigurationKey("search.page_size") static var searchPageSize = 20
}
