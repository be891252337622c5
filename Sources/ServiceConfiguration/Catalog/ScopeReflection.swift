@_spi(Reflection) import Swift

/// Lists the key types of a scope from its stored properties, using the standard library's reflection SPI.
///
/// This is the package's only use of the SPI. It works in debug and release builds and across modules; it finds
/// nothing when reflection metadata is stripped (`-disable-reflection-metadata`), which ``ConfigurationCatalog``
/// reports as ``ConfigurationError/scopeHasNoKeys(_:)``. A scope can then list its keys itself by implementing
/// ``ConfigurationScope/keys``.
enum ScopeReflection {
    static func keyTypes(of scope: Any.Type) -> [any ConfigurationKey.Type] {
        var keys: [any ConfigurationKey.Type] = []
        _ = _forEachField(of: scope, options: []) { _, _, fieldType, _ in
            if let key = fieldType as? any ConfigurationKey.Type { keys.append(key) }
            return true
        }
        return keys
    }
}
