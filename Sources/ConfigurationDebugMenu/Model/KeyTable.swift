package import ServiceConfiguration
import ServiceConfigurationFileStore

/// The catalog as the menu uses it: keys in scope order (found by name through the catalog's own index), each
/// scope's common name prefix, the widths the list's columns need, and search texts laid out in buffers for fast
/// filtering. Built once; shared by every state (compared by identity).
package final class KeyTable: Sendable {
    /// One scope and the range of its keys in ``keys``.
    package struct Scope: Sendable, Hashable {
        /// The scope's name.
        package let name: String
        /// Its keys' indices in ``KeyTable/keys``.
        package let range: Range<Int>
        /// The start every key name of the scope shares, up to a dot (`function.chat.`); empty when none.
        package let namePrefix: String
    }

    /// One key: its descriptor and its scope's index.
    package struct Key: Sendable {
        /// The key's descriptor.
        package let descriptor: ConfigurationKeyDescriptor
        /// The index of its scope in ``KeyTable/scopes``.
        package let scope: Int
    }

    /// Every key, scope by scope, read from the catalog's own lists when asked for (a copy of each descriptor and
    /// its scope's index was 16 bytes a key: 16 MB at a million keys; its scope's index alone is 4).
    package struct Keys: RandomAccessCollection, Sendable {
        /// The catalog's scopes, which are the table's, in order.
        fileprivate let scopes: [ConfigurationCatalog.Scope]
        /// Where each scope's keys start, in the table's order.
        fileprivate let starts: [Int]
        /// Each key's scope.
        fileprivate let scopeOfKey: [UInt32]

        /// The first key's index (0).
        package var startIndex: Int { 0 }
        /// One past the last key.
        package var endIndex: Int { scopeOfKey.count }

        /// The key at `index`.
        package subscript(index: Int) -> Key {
            let scope = Int(scopeOfKey[index])
            return Key(descriptor: scopes[scope].keys[index - starts[scope]], scope: scope)
        }
    }

    /// The scopes, in catalog order.
    package let scopes: [Scope]
    /// Every key, scope by scope.
    package let keys: Keys
    /// The catalog the table was built from, for finding a key by name (its scopes are the table's, in order).
    private let catalog: ConfigurationCatalog
    /// Lower-cased UTF-8 of "title \u{1} name \u{1} scope" for every key, back to back.
    let searchText: [UInt8]
    /// Where each key's search text starts in ``searchText``; one more entry marks the end.
    let searchOffsets: [Int]
    /// Where each key's wire name starts and ends within its search text (bytes from its start), two entries a key:
    /// the title is the bytes before the name, less the separator.
    let nameBounds: [UInt32]
    /// Lower-cased UTF-8 of every key's summary (description), back to back.
    let summaryText: [UInt8]
    /// Where each key's summary starts in ``summaryText``; one more entry marks the end. Empty when no key has a
    /// summary (8 bytes a key saved; manifests written by a tool often have none).
    let summaryOffsets: [Int]
    /// Every key's default value's UTF-8 (nothing for a key without one), back to back: a search of values reads
    /// the default of each key that has nothing else here, in order, instead of from its descriptor (descriptors lie
    /// apart in memory; reading them made a search from scratch at 100,000 keys 60–90% slower).
    let defaultText: [UInt8]
    /// Where each key's default starts in ``defaultText``; one more entry marks the end.
    let defaultOffsets: [UInt32]
    /// The widest title, in columns.
    package let widestTitle: Int
    /// The widest wire name, in columns.
    package let widestName: Int
    /// The widest wire name without its scope's prefix, in columns.
    package let widestShortName: Int

    /// Builds the table from a catalog.
    package init(catalog: ConfigurationCatalog) {
        var scopes: [Scope] = []
        var starts: [Int] = []
        var scopeOfKey: [UInt32] = []
        scopeOfKey.reserveCapacity(catalog.keyCount)
        var keyCount = 0
        var text: [UInt8] = []
        var offsets: [Int] = []
        var nameBounds: [UInt32] = []
        var summaries: [UInt8] = []
        var defaults: [UInt8] = []
        var defaultOffsets: [UInt32] = [0]
        var summaryOffsets: [Int] = []
        var widestTitle = 0
        var widestName = 0
        var widestShortName = 0
        // Sized once: growing the search text while appending to it took a tenth of the table's time.
        var textSize = 0
        var summarySize = 0
        var defaultSize = 0
        for scope in catalog.scopes {
            for descriptor in scope.keys {
                defaultSize += descriptor.defaultValueString?.utf8.count ?? 0
                textSize += descriptor.withNameAndTitleUTF8 { $0.count + $1.count } + scope.name.utf8.count + 2
                summarySize += descriptor.summary?.utf8.count ?? 0
            }
        }
        text.reserveCapacity(textSize)
        summaries.reserveCapacity(summarySize)
        precondition(defaultSize < UInt32.max, "the catalog's default values come to less than 4 GiB")
        defaults.reserveCapacity(defaultSize)
        defaultOffsets.reserveCapacity(catalog.keyCount + 1)
        offsets.reserveCapacity(catalog.keyCount + 1)
        nameBounds.reserveCapacity(2 * catalog.keyCount)
        let hasSummaries = summarySize > 0
        if hasSummaries { summaryOffsets.reserveCapacity(catalog.keyCount + 1) }
        starts.reserveCapacity(catalog.scopes.count)
        for (scopeIndex, scope) in catalog.scopes.enumerated() {
            let start = keyCount
            starts.append(start)
            scopeOfKey.append(
                contentsOf: repeatElement(UInt32(truncatingIfNeeded: scopeIndex), count: scope.keys.count))
            let prefix = Self.commonPrefix(of: scope.keys)
            let prefixLength = prefix.count
            for descriptor in scope.keys {
                keyCount += 1
                let textStart = text.count
                offsets.append(textStart)
                // Title, name and scope, each after a 1 when something precedes it; read as bytes (a packed name or
                // title made a string would cost an allocation each).
                let (nameWidth, titleWidth) = descriptor.withNameAndTitleUTF8 { name, title in
                    Self.appendLowercased(title, to: &text)
                    if text.count > textStart { text.append(1) }
                    nameBounds.append(UInt32(truncatingIfNeeded: text.count - textStart))
                    Self.appendLowercased(name, to: &text)
                    nameBounds.append(UInt32(truncatingIfNeeded: text.count - textStart))
                    return (TextWidth.of(utf8: name), TextWidth.of(utf8: title))
                }
                if text.count > textStart { text.append(1) }
                Self.appendLowercased(scope.name.utf8, to: &text)
                if hasSummaries {
                    summaryOffsets.append(summaries.count)
                    Self.appendLowercased((descriptor.summary ?? "").utf8, to: &summaries)
                }
                if let value = descriptor.defaultValueString { defaults.append(contentsOf: value.utf8) }
                defaultOffsets.append(UInt32(truncatingIfNeeded: defaults.count))
                widestTitle = max(widestTitle, titleWidth)
                widestName = max(widestName, nameWidth)
                widestShortName = max(widestShortName, nameWidth - prefixLength)
            }
            scopes.append(Scope(name: scope.name, range: start..<keyCount, namePrefix: prefix))
        }
        offsets.append(text.count)
        if hasSummaries { summaryOffsets.append(summaries.count) }
        self.scopes = scopes
        self.keys = Keys(scopes: catalog.scopes, starts: starts, scopeOfKey: scopeOfKey)
        self.searchText = text
        self.searchOffsets = offsets
        self.nameBounds = nameBounds
        self.summaryText = summaries
        self.summaryOffsets = summaryOffsets
        self.defaultText = defaults
        self.defaultOffsets = defaultOffsets
        self.widestTitle = widestTitle
        self.widestName = widestName
        self.widestShortName = widestShortName
        self.catalog = catalog
    }

    /// The lower-cased UTF-8 of the key's summary (empty when it has none).
    func summary(of key: Int) -> ArraySlice<UInt8> {
        summaryOffsets.isEmpty ? [] : summaryText[summaryOffsets[key]..<summaryOffsets[key + 1]]
    }

    /// The UTF-8 of the key's default value (empty when it has none).
    func defaultValueBytes(of key: Int) -> ArraySlice<UInt8> {
        defaultText[Int(defaultOffsets[key])..<Int(defaultOffsets[key + 1])]
    }

    /// The index of the key named `name`, if it is in the catalog.
    package func index(of name: String) -> Int? {
        catalog.position(of: name).map { scopes[$0.scope].range.lowerBound + $0.key }
    }

    /// The key's name without its scope's common prefix (which the scope's heading shows).
    package func shortName(of key: Int) -> String {
        let name = keys[key].descriptor.name
        return String(name.dropFirst(scopes[keys[key].scope].namePrefix.count))
    }

    /// The longest start shared by every key's name, cut after its last dot; empty for fewer than two keys or when
    /// nothing would remain of a name. The names are read as bytes (a packed name made a string costs an allocation).
    static func commonPrefix(of keys: [ConfigurationKeyDescriptor]) -> String {
        guard keys.count > 1 else { return "" }
        // Compared as UTF-8 (fast). The answer stands when every name starts with it character by character too, which
        // only a combining mark right after the dot can spoil; names whose letters differ only in how they are encoded
        // (é as one scalar or as e and a combining accent) share a shorter prefix here than character by character.
        let first = keys[0].withNameUTF8 { Array($0) }
        var length = first.count
        for key in keys.dropFirst() {
            key.withNameUTF8 { name in
                var shared = 0
                let limit = min(length, name.count)
                while shared < limit, first[shared] == name[shared] { shared += 1 }
                length = shared
            }
        }
        guard let dot = first[..<length].lastIndex(of: UInt8(ascii: ".")) else { return "" }
        let bytes = dot + 1
        // Every name starts with the candidate's bytes. One with nothing or an ASCII byte after them starts with its
        // characters too (an ASCII character after the dot begins a character of its own); only the others are
        // compared as characters (slow: a fifth of a 100,000-key table's time when every name was).
        var leavesNothing = false
        var asciiAfter = true
        for key in keys where asciiAfter {
            key.withNameUTF8 { name in
                if name.count == bytes { leavesNothing = true } else if name[bytes] >= 0x80 { asciiAfter = false }
            }
        }
        if asciiAfter { return leavesNothing ? "" : String(decoding: first[..<bytes], as: UTF8.self) }
        let candidate = String(decoding: first[..<bytes], as: UTF8.self)
        let strings = keys.map(\.name)
        if strings.allSatisfy({ $0.utf8.count == bytes || $0.hasPrefix(candidate) }) {
            return strings.contains { $0.utf8.count == bytes } ? "" : candidate
        }
        return characterPrefix(strings)
    }

    /// ``commonPrefix(of:)`` character by character.
    private static func characterPrefix(_ names: [String]) -> String {
        guard names.count > 1, var prefix = names.first.map(Array.init) else { return "" }
        for name in names.dropFirst() {
            let characters = Array(name)
            var length = 0
            while length < min(prefix.count, characters.count), prefix[length] == characters[length] { length += 1 }
            prefix.removeSubrange(length...)
            if prefix.isEmpty { return "" }
        }
        guard let dot = prefix.lastIndex(of: ".") else { return "" }
        let result = String(prefix[...dot])
        return names.contains { $0.count == result.count } ? "" : result
    }

    /// Appends UTF-8 `text`, ASCII letters lower-cased.
    private static func appendLowercased<Bytes: Sequence<UInt8>>(_ text: Bytes, to buffer: inout [UInt8]) {
        let start = buffer.count
        buffer.append(contentsOf: text)
        buffer.withUnsafeMutableBufferPointer { buffer in
            for index in start..<buffer.count where buffer[index] &- 65 < 26 { buffer[index] &+= 32 }
        }
    }
}
