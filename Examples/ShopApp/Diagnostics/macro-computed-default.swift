// expect: a key's default is a stored value, not a computed property
// flags: macros
import ServiceConfigurationMacros

@ConfigurationScope
struct Search {
    @ConfigurationKey("search.page_size") static var searchPageSize: Int { 20 }
}
