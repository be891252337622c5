// expect: property 'name' must be declared public because it matches a requirement in public protocol 'ConfigurationKey'
import ServiceConfiguration

extension ConfigurationScopes {
    public struct Search: ConfigurationScope {
        public let searchEnabled: EnabledKey
        public enum EnabledKey: ConfigurationKey {
            static let name = "search.enabled"
            public static let defaultValue = false
        }
    }
}
