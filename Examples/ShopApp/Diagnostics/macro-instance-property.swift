// expect: a key is declared 'static let searchPageSize = <default>': the macro adds the property 'searchPageSize'
// flags: macros
import ServiceConfigurationMacros

@ConfigurationScope
struct Search {
    @ConfigurationKey("search.page_size") let searchPageSize = 20
}
