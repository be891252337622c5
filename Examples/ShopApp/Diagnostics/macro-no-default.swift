// expect: a key needs its default value: 'static let searchPageSize = <default>'
// flags: macros
import ServiceConfigurationMacros

@ConfigurationScope
struct Search {
    @ConfigurationKey("search.page_size") static let searchPageSize: Int
}
