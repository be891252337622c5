// expect: the wire name " search.page_size" contains a space: a wire name has no spaces or control characters
// flags: macros
import ServiceConfigurationMacros

@ConfigurationScope
struct Search {
    @ConfigurationKey(" search.page_size") static let searchPageSize = 20
}
