// expect: reference to member 'trueFalse' cannot be resolved without a contextual type
import ServiceConfiguration

enum SearchEnabledKey: ConfigurationKey {
    static let name = "search.enabled"
    static let defaultValue = false
    static let boolEncoding = .trueFalse
}
