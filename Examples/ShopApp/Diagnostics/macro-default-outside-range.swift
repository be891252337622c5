// expect: the default 200 is outside the key's range 10...100: the catalog would refuse this key
// flags: macros
import ServiceConfigurationMacros

@ConfigurationScope
struct Search {
    @ConfigurationKey("search.page_size", range: 10...100) static let searchPageSize = 200
}
