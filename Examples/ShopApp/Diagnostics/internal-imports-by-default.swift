// expect: cannot use protocol 'ConfigurationKey' in a public or '@usableFromInline' conformance; 'ServiceConfiguration' was not imported publicly
// flags: -enable-upcoming-feature InternalImportsByDefault
import ServiceConfiguration

extension ConfigurationScopes {
    public struct Search: ConfigurationScope {
        public let searchEnabled: EnabledKey
        public enum EnabledKey: ConfigurationKey {
            public static let name = "search.enabled"
            public static let defaultValue = false
        }
    }
}
