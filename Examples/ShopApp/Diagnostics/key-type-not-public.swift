// expect: property cannot be declared public because its type uses an internal type
import ServiceConfiguration

extension ConfigurationScopes {
    public struct Search: ConfigurationScope {
        public let searchEnabled: EnabledKey
        enum EnabledKey: ConfigurationKey {
            static let name = "search.enabled"
            static let defaultValue = false
        }
    }
}
