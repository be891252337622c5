package import ServiceConfiguration

/// The catalog as the menu uses it: keys in scope order, an index by name, and a search text per key laid out in
/// one buffer for fast filtering. Built once; shared by every state (compared by identity).
package final class KeyTable: Sendable {
    /// One scope and the range of its keys in ``keys``.
    package struct Scope: Sendable, Hashable {
        /// The scope's name.
        package let name: String
        /// Its keys' indices in ``KeyTable/keys``.
        package let range: Range<Int>
    }

    /// One key: its descriptor and its scope's index.
    package struct Key: Sendable {
        /// The key's descriptor.
        package let descriptor: ConfigurationKeyDescriptor
        /// The index of its scope in ``KeyTable/scopes``.
        package let scope: Int
    }

    /// The scopes, in catalog order.
    package let scopes: [Scope]
    /// Every key, scope by scope.
    package let keys: [Key]
    private let index: [String: Int]
    /// Lower-cased UTF-8 of "title \u{1} name \u{1} scope" for every key, back to back.
    let searchText: [UInt8]
    /// Where each key's search text starts in ``searchText``; one more entry marks the end.
    let searchOffsets: [Int]

    /// Builds the table from a catalog.
    package init(catalog: ConfigurationCatalog) {
        var scopes: [Scope] = []
        var keys: [Key] = []
        var text: [UInt8] = []
        var offsets: [Int] = []
        keys.reserveCapacity(catalog.keyCount)
        offsets.reserveCapacity(catalog.keyCount + 1)
        for (scopeIndex, scope) in catalog.scopes.enumerated() {
            let start = keys.count
            for descriptor in scope.keys {
                keys.append(Key(descriptor: descriptor, scope: scopeIndex))
                offsets.append(text.count)
                for field in [descriptor.title, descriptor.name, scope.name] {
                    if text.count > offsets[offsets.count - 1] { text.append(1) }
                    for byte in field.utf8 {
                        text.append(byte >= 65 && byte <= 90 ? byte + 32 : byte)
                    }
                }
            }
            scopes.append(Scope(name: scope.name, range: start..<keys.count))
        }
        offsets.append(text.count)
        self.scopes = scopes
        self.keys = keys
        self.searchText = text
        self.searchOffsets = offsets
        var index: [String: Int] = [:]
        index.reserveCapacity(keys.count)
        for (position, key) in keys.enumerated() { index[key.descriptor.name] = position }
        self.index = index
    }

    /// The index of the key named `name`, if it is in the catalog.
    package func index(of name: String) -> Int? { index[name] }
}
