// expect: boolEncoding applies only to Bool keys; this key's default is
// flags: macros
import ServiceConfigurationMacros

@ConfigurationScope
struct Search {
    @ConfigurationKey("search.page_size", boolEncoding: .trueFalse) static let searchPageSize = 20
}
