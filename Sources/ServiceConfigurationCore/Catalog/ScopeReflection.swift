@_spi(Reflection) import Swift

/// Lists the key properties of a scope from its stored properties, using the standard library's reflection SPI.
///
/// This is the package's only use of the SPI. It works in debug and release builds and across modules; it finds
/// nothing when reflection metadata is stripped (`-disable-reflection-metadata`), which ``ConfigurationCatalog``
/// reports as ``ConfigurationError/scopeHasNoKeys(_:)``. A scope can then list its keys itself by implementing
/// ``ConfigurationScope/keys``.
enum ScopeReflection {
    /// The key types of the scope's stored properties, in declaration order.
    static func keyTypes(of scope: Any.Type) -> [any ConfigurationKey.Type] {
        keyProperties(of: scope).map(\.type)
    }

    /// The scope's stored properties whose type is a key, with their names, in declaration order.
    static func keyProperties(of scope: Any.Type) -> [(name: String, type: any ConfigurationKey.Type)] {
        var properties: [(name: String, type: any ConfigurationKey.Type)] = []
        _ = _forEachField(of: scope, options: []) { name, _, fieldType, _ in
            if let key = fieldType as? any ConfigurationKey.Type {
                properties.append((String(cString: name), key))
            }
            return true
        }
        return properties
    }
}
