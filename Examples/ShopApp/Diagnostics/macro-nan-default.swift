// expect: the default 'Double.nan' has no wire form: a number travels as a finite decimal
// flags: macros
import ServiceConfigurationMacros

@ConfigurationScope
struct Search {
    @ConfigurationKey("search.boost") static let searchBoost = Double.nan
}
