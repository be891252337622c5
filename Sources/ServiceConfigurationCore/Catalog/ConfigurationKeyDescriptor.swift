/// Everything tools need to know about one key, without its type: name, scope, title, control, default, and a
/// function that validates a wire string.
///
/// ``ConfigurationCatalog`` builds descriptors from key types; a catalog manifest (JSON) builds them from
/// descriptions, so a standalone tool can validate values for a program it does not link.
///
/// ```swift
/// let descriptor = ConfigurationKeyDescriptor(AlbumLikeEnabledKey.self, scopeName: "Album")
/// try descriptor.validate("Y")     // "Y"
/// try descriptor.validate("yes")   // throws: expected Y or N, got "yes"
/// ```
public struct ConfigurationKeyDescriptor: Sendable, Identifiable, CustomStringConvertible {
    /// The wire name; also the descriptor's identity.
    public var id: String { name }
    /// The wire name, for example `"function.album.like.enabled"`.
    ///
    /// A key of a catalog keeps its name in bytes its scope's keys share, and makes this string when asked (an
    /// allocation for a name over 15 bytes): read it once where a loop needs it more than once.
    public var name: String { storage.text.name }
    /// The name of the scope that declares the key; empty when unknown.
    public var scopeName: String { storage.shape.scopeName }
    /// The title shown in the debug menu; made when asked, as ``name`` is.
    public var title: String { storage.text.title }
    /// The key's ``ConfigurationKey/summary``, or `nil` when it has none.
    public var summary: String? { storage.extras?.summary }
    /// The value type's name, for example `"Bool"` or `"ImageTransferQuality"`.
    public var valueTypeName: String { storage.shape.valueTypeName }
    /// How the value is edited.
    public var control: ConfigurationDebugControl { storage.shape.control.control }
    /// The default value's wire string, or `nil` when the default has no wire form.
    public var defaultValueString: String? { storage.defaultValueString }
    /// For a toggle, the wire strings of on and off: `"Y"` and `"N"` unless the key encodes its Bool otherwise.
    public var toggleStrings: ToggleStrings { storage.shape.customToggleStrings?.value ?? .standard }
    /// The regular expression every wire string must match (``ConfigurationKey/valuePattern``); ``ConfigurationValuePattern/any``
    /// when there is none.
    public var pattern: ConfigurationValuePattern { storage.shape.pattern }
    /// The key's owner, ticket and removal due (``ConfigurationKey/lifecycle``).
    public var lifecycle: ConfigurationKeyLifecycle { storage.extras?.lifecycle ?? .none }

    /// The fields, in one shared object: a catalog, a service and a menu each keep every descriptor, and at
    /// 100,000 keys copies of an eight-word struct would cost tens of megabytes where a reference costs one word.
    /// What keys share (scope, type, control…) is in ``Shape``, what most keys lack in ``Extras``, and the name and
    /// title of a catalog's key in its scope's ``PackedText``: 64 bytes a key, and no string object of its own.
    private final class Storage: Sendable {
        let text: Text
        let defaultValueString: String?
        /// The scope, value type, control, toggle strings, pattern and validator: shared by a manifest's keys of one
        /// kind in one scope (one word a key instead of nine).
        let shape: Shape
        /// The summary and lifecycle; `nil` for the common key that declares neither (one word a key, not nine).
        let extras: Extras?

        init(
            text: Text,
            summary: String?,
            defaultValueString: String?,
            shape: Shape,
            lifecycle: ConfigurationKeyLifecycle
        ) {
            self.text = text
            self.defaultValueString = defaultValueString
            self.shape = shape
            self.extras = summary == nil && lifecycle.isEmpty ? nil : Extras(summary: summary, lifecycle: lifecycle)
        }

        /// A copy with another shape or text.
        init(_ other: Storage, shape: Shape? = nil, text: Text? = nil) {
            self.text = text ?? other.text
            defaultValueString = other.defaultValueString
            self.shape = shape ?? other.shape
            extras = other.extras
        }
    }

    /// A key's name and title: two strings of its own, or a place in the bytes its scope's keys share.
    fileprivate enum Text: Sendable {
        case strings(Strings)
        /// The name is `nameLength` bytes from `start`; the title's length follows it (4 bytes, little-endian),
        /// then the title.
        case packed(PackedText, start: UInt32, nameLength: UInt32)

        var name: String {
            switch self {
            case .strings(let strings): strings.name
            case .packed(let text, let start, let nameLength): text.string(at: Int(start), count: Int(nameLength))
            }
        }

        var title: String {
            switch self {
            case .strings(let strings): return strings.title
            case .packed(let text, let start, let nameLength):
                let lengthStart = Int(start) + Int(nameLength)
                return text.string(at: lengthStart + 4, count: text.length(at: lengthStart))
            }
        }

        /// Calls `body` with the name's and the title's UTF-8, without making strings when they are packed.
        func withUTF8<Result>(
            _ body: (_ name: UnsafeBufferPointer<UInt8>, _ title: UnsafeBufferPointer<UInt8>) throws -> Result
        ) rethrows -> Result {
            switch self {
            case .strings(let strings):
                var name = strings.name
                var title = strings.title
                return try name.withUTF8 { name in try title.withUTF8 { title in try body(name, title) } }
            case .packed(let text, let start, let nameLength):
                let titleStart = Int(start) + Int(nameLength) + 4
                let titleEnd = titleStart + text.length(at: titleStart - 4)
                return try text.bytes.withUnsafeBufferPointer { bytes in
                    try body(
                        UnsafeBufferPointer(rebasing: bytes[Int(start)..<Int(start) + Int(nameLength)]),
                        UnsafeBufferPointer(rebasing: bytes[titleStart..<titleEnd]))
                }
            }
        }
    }

    /// A key's name and title as strings, for a key not in a catalog.
    fileprivate final class Strings: Sendable {
        let name: String
        let title: String

        init(name: String, title: String) {
            self.name = name
            self.title = title
        }
    }

    /// The names and titles of one scope's keys, one after another in one buffer. A name or a title longer than 15
    /// bytes is a string object of its own (32 bytes of header, and malloc's rounding) where here it is only its
    /// bytes: at a million keys, about 80 MB less (heaptrack, BENCHMARKS.md).
    fileprivate final class PackedText: Sendable {
        let bytes: [UInt8]

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func string(at start: Int, count: Int) -> String {
            bytes.withUnsafeBufferPointer {
                String(decoding: UnsafeBufferPointer(rebasing: $0[start..<start + count]), as: UTF8.self)
            }
        }

        /// The 4-byte little-endian length at `start`.
        func length(at start: Int) -> Int {
            (0..<4).reduce(0) { $0 | Int(bytes[start + $1]) << (8 * $1) }
        }

        /// Where the name and title of each of `count` keys (`text(i)` gives the `i`th's) is kept in one new
        /// ``PackedText``; `nil` when the bytes would not fit 32-bit offsets.
        static func places(count: Int, _ text: (Int) -> (name: String, title: String)) -> [PackedPlace]? {
            var size = 0
            for index in 0..<count {
                let (name, title) = text(index)
                size += name.utf8.count + title.utf8.count + 4
            }
            guard size <= Int(UInt32.max) else { return nil }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(size)
            var places: [(start: UInt32, nameLength: UInt32)] = []
            places.reserveCapacity(count)
            for index in 0..<count {
                let (name, title) = text(index)
                let start = UInt32(truncatingIfNeeded: bytes.count)
                bytes.append(contentsOf: name.utf8)
                places.append((start, UInt32(truncatingIfNeeded: bytes.count) - start))
                let titleLength = UInt32(truncatingIfNeeded: title.utf8.count)
                bytes.append(UInt8(truncatingIfNeeded: titleLength))
                bytes.append(UInt8(truncatingIfNeeded: titleLength >> 8))
                bytes.append(UInt8(truncatingIfNeeded: titleLength >> 16))
                bytes.append(UInt8(truncatingIfNeeded: titleLength >> 24))
                bytes.append(contentsOf: title.utf8)
            }
            let text = PackedText(bytes)
            return places.map { PackedPlace(text: .packed(text, start: $0.start, nameLength: $0.nameLength)) }
        }
    }

    /// Where a key's name and title are in the bytes its scope's keys share (``packedPlaces(count:_:)``).
    struct PackedPlace {
        fileprivate let text: Text
    }

    /// Packs the names and titles of a scope's `count` keys (`text(i)` gives the `i`th's) into one buffer, before
    /// their descriptors are made (`init(describedAs:…packed:)`); `nil` when they come to 4 GiB or more.
    static func packedPlaces(count: Int, _ text: (Int) -> (name: String, title: String)) -> [PackedPlace]? {
        PackedText.places(count: count, text)
    }

    /// `keys` with the names and titles of all of them kept in one buffer (a catalog's scope keeps its keys so);
    /// `keys` as they are when they already share one, or when the bytes would come to 4 GiB or more.
    static func packingText(of keys: [ConfigurationKeyDescriptor]) -> [ConfigurationKeyDescriptor] {
        if case .packed(let shared, _, _)? = keys.first?.storage.text,
            keys.allSatisfy({ if case .packed(let text, _, _) = $0.storage.text { text === shared } else { false } })
        {
            return keys
        }
        guard let places = PackedText.places(count: keys.count, { (keys[$0].name, keys[$0].title) }) else {
            return keys
        }
        return zip(keys, places).map { key, place in
            ConfigurationKeyDescriptor(storage: Storage(key.storage, text: place.text))
        }
    }

    /// A key's summary and lifecycle, kept by reference (most keys have neither).
    private final class Extras: Sendable {
        let summary: String?
        let lifecycle: ConfigurationKeyLifecycle

        init(summary: String?, lifecycle: ConfigurationKeyLifecycle) {
            self.summary = summary
            self.lifecycle = lifecycle
        }
    }

    /// The scope a key belongs to and how its values are typed, edited and checked. A key declared in Swift has
    /// one of its own (its validator is its type's); a manifest's keys with an equal scope, value type, control, toggle
    /// strings and pattern share one (``ControlSharing``).
    fileprivate final class Shape: Sendable {
        let scopeName: String
        let valueTypeName: String
        let control: StoredControl
        /// `nil` for the standard `Y`/`N`.
        let customToggleStrings: ToggleStringsBox?
        let pattern: ConfigurationValuePattern
        /// `nil` for a key known by description: its control, toggle strings and pattern say how to validate
        /// (``ManifestValidation``), so no closure and no captured copy of its choices is kept per key.
        let validator: (@Sendable (String) throws(ConfigurationDecodingError) -> String)?

        init(
            scopeName: String,
            valueTypeName: String,
            control: StoredControl,
            toggleStrings: ToggleStrings,
            pattern: ConfigurationValuePattern,
            validator: (@Sendable (String) throws(ConfigurationDecodingError) -> String)?
        ) {
            self.scopeName = scopeName
            self.valueTypeName = valueTypeName
            self.control = control
            self.customToggleStrings = toggleStrings == .standard ? nil : ToggleStringsBox(toggleStrings)
            self.pattern = pattern
            self.validator = validator
        }

        /// A copy that belongs to `scopeName`.
        init(_ other: Shape, scopeName: String) {
            self.scopeName = scopeName
            valueTypeName = other.valueTypeName
            control = other.control
            customToggleStrings = other.customToggleStrings
            pattern = other.pattern
            validator = other.validator
        }
    }

    /// A control as a descriptor keeps it: a number's range by reference, so the field is two words where the
    /// public enum, whose range is three strings inline, is seven.
    fileprivate enum StoredControl: Sendable {
        case toggle
        case picker([ConfigurationDebugControl.Choice])
        case text
        case number(ConfigurationNumberKind, NumberRangeBox?)
        case json

        init(_ control: ConfigurationDebugControl) {
            switch control {
            case .toggle: self = .toggle
            case .picker(let choices): self = .picker(choices)
            case .text: self = .text
            case .number(let kind, let range): self = .number(kind, range.map(NumberRangeBox.init))
            case .json: self = .json
            }
        }

        var control: ConfigurationDebugControl {
            switch self {
            case .toggle: .toggle
            case .picker(let choices): .picker(choices)
            case .text: .text
            case .number(let kind, let range): .number(kind, range?.value)
            case .json: .json
            }
        }
    }

    /// Toggle strings other than the standard ones, kept by reference.
    fileprivate final class ToggleStringsBox: Sendable {
        let value: ToggleStrings
        init(_ value: ToggleStrings) { self.value = value }
    }

    /// A number control's range, kept by reference.
    fileprivate final class NumberRangeBox: Sendable {
        let value: ConfigurationNumberRange
        init(_ value: ConfigurationNumberRange) { self.value = value }
    }

    /// What descriptors made one after another can share: keys with an equal value type, control (a picker's list of
    /// choices, a number's range), toggle strings and pattern share one ``Shape`` (a manifest's keys of one
    /// enumeration, or every integer with the same range, keep those once).
    final class ControlSharing {
        /// What makes two shapes the same.
        private struct Kind: Hashable {
            let scopeName: String
            let valueTypeName: String
            let control: ConfigurationDebugControl
            let toggleStrings: ToggleStrings
            let pattern: ConfigurationValuePattern

            /// The scope, the value type, the control's kind and its choices' values: what tells a scope's shapes
            /// apart in practice, without hashing every choice's title (equality still compares everything).
            func hash(into hasher: inout Hasher) {
                hasher.combine(scopeName)
                hasher.combine(valueTypeName)
                switch control {
                case .toggle: hasher.combine(0)
                case .text: hasher.combine(1)
                case .json: hasher.combine(2)
                case .number(let kind, _): hasher.combine(kind)
                case .picker(let choices):
                    hasher.combine(choices.count)
                    for choice in choices { hasher.combine(choice.value) }
                }
            }
        }

        private var shapes: [Kind: Shape] = [:]
        /// The last few shapes found, looked through (by equality) before the table: a scope's keys come in a few
        /// kinds, and comparing a key's kind with theirs costs less than hashing it (the table's hashing, probing and
        /// copies of kinds were about a tenth of the instructions to the menu's first frame from a manifest).
        private var recent: [(kind: Kind, shape: Shape)] = []

        /// The shared shape of a key known by description (validated by its control, toggle strings and pattern).
        fileprivate func shape(
            scopeName: String, valueTypeName: String, control: ConfigurationDebugControl, toggleStrings: ToggleStrings,
            pattern: ConfigurationValuePattern
        ) -> Shape {
            let kind = Kind(
                scopeName: scopeName, valueTypeName: valueTypeName, control: control, toggleStrings: toggleStrings,
                pattern: pattern)
            if let found = recent.first(where: { $0.kind == kind }) { return found.shape }
            let shape: Shape
            if let known = shapes[kind] {
                shape = known
            } else {
                shape = Shape(
                    scopeName: scopeName, valueTypeName: valueTypeName, control: StoredControl(control),
                    toggleStrings: toggleStrings, pattern: pattern, validator: nil)
                shapes[kind] = shape
            }
            if recent.count == 8 { recent.removeFirst() }
            recent.append((kind, shape))
            return shape
        }
    }

    private let storage: Storage

    /// The wire strings a toggle writes.
    public struct ToggleStrings: Sendable, Hashable {
        /// The string for true.
        public var on: String
        /// The string for false.
        public var off: String

        /// `Y`/`N`.
        public static let standard = ToggleStrings(on: "Y", off: "N")

        /// Creates the pair.
        public init(on: String, off: String) {
            self.on = on
            self.off = off
        }
    }
    /// Describes a key type; a key that names no owner gets `scopeOwner` (``ConfigurationScope/owner``).
    public init<K: ConfigurationKey>(_ key: K.Type, scopeName: String = "", scopeOwner: String? = nil) {
        var lifecycle = K.lifecycle
        if lifecycle.owner == nil, let scopeOwner, !scopeOwner.isEmpty { lifecycle.owner = scopeOwner }
        var toggleStrings = ToggleStrings.standard
        if let on = true as? K.Value, let off = false as? K.Value, let onString = try? K.encode(on),
            let offString = try? K.encode(off)
        {
            toggleStrings = ToggleStrings(on: onString, off: offString)
        }
        let control = Self.erasedControl(of: K.self)
        let range = control.numberRange
        let shape = Shape(
            scopeName: scopeName,
            valueTypeName: String(describing: K.Value.self),
            control: StoredControl(control),
            toggleStrings: toggleStrings,
            pattern: K.valuePattern,
            validator: { raw throws(ConfigurationDecodingError) in
                // The key's decoding, then its bounds: the rule the typed read applies too.
                let value: K.Value
                do {
                    value = try K.decodeWithinBounds(from: raw, range: range)
                } catch let error as ConfigurationDecodingError {
                    throw error
                } catch {
                    throw ConfigurationDecodingError("\(error)")
                }
                return (try? K.encode(value)) ?? raw
            }
        )
        storage = Storage(
            text: .strings(Strings(name: K.name, title: K.debugTitle)), summary: K.summary.summaryText,
            defaultValueString: try? K.encode(K.defaultValue), shape: shape, lifecycle: lifecycle)
    }

    /// Describes a key from its parts, for keys known only by description (for example from a manifest).
    ///
    /// `validate` returns the canonical wire string of a valid value, or throws why the string is invalid; it is
    /// responsible for checking `pattern` too (the manifest reader's validators do).
    public init(
        name: String,
        scopeName: String,
        title: String,
        summary: String? = nil,
        valueTypeName: String,
        control: ConfigurationDebugControl,
        defaultValueString: String?,
        toggleStrings: ToggleStrings = .standard,
        pattern: ConfigurationValuePattern = .any,
        lifecycle: ConfigurationKeyLifecycle = .none,
        validate: @escaping @Sendable (String) throws(ConfigurationDecodingError) -> String
    ) {
        self.init(
            describedAs: name, scopeName: scopeName, title: title, summary: summary, valueTypeName: valueTypeName,
            control: control, defaultValueString: defaultValueString, toggleStrings: toggleStrings, pattern: pattern,
            lifecycle: lifecycle, validator: validate)
    }

    /// Describes a key from its parts; with no `validator`, it is validated by its control, toggle strings and
    /// pattern (``ManifestValidation/validate(_:control:toggle:pattern:)``), as a manifest's keys are, and keeps no
    /// closure. With `sharing` (and no `validator`), its scope, value type, control, toggle strings and pattern are kept
    /// in the object an earlier descriptor made with the same `sharing` keeps, when equal. With `packed`, its name and
    /// title are the ones kept there (`name` and `title` are not kept).
    init(
        describedAs name: String,
        scopeName: String,
        title: String,
        summary: String?,
        valueTypeName: String,
        control: ConfigurationDebugControl,
        defaultValueString: String?,
        toggleStrings: ToggleStrings,
        pattern: ConfigurationValuePattern,
        lifecycle: ConfigurationKeyLifecycle,
        validator: (@Sendable (String) throws(ConfigurationDecodingError) -> String)? = nil,
        sharing: ControlSharing? = nil,
        packed: PackedPlace? = nil
    ) {
        let shape =
            if let sharing, validator == nil {
                sharing.shape(
                    scopeName: scopeName, valueTypeName: valueTypeName, control: control, toggleStrings: toggleStrings,
                    pattern: pattern)
            } else {
                Shape(
                    scopeName: scopeName, valueTypeName: valueTypeName, control: StoredControl(control),
                    toggleStrings: toggleStrings, pattern: pattern, validator: validator)
            }
        self.init(
            storage: Storage(
                text: packed?.text ?? .strings(Strings(name: name, title: title)), summary: summary,
                defaultValueString: defaultValueString, shape: shape, lifecycle: lifecycle))
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    /// Checks a wire string; returns the canonical wire string of the value it decodes to.
    ///
    /// The canonical string is the key's `encode` of the decoded value, so `"007"` for an integer gives `"7"`.
    public func validate(_ raw: String) throws(ConfigurationDecodingError) -> String {
        let shape = storage.shape
        if let validator = shape.validator { return try validator(raw) }
        return try ManifestValidation.validate(
            raw, control: shape.control.control, toggle: toggleStrings, pattern: shape.pattern)
    }

    /// Resolves the key from its two layers, exactly as the typed path does; the value is the canonical wire
    /// string (the default's, for ``ValueOrigin/default``).
    public func resolve(override: String?, server: String?) -> ConfigurationResolution<String?> {
        resolve(RawLayers(override: override, server: server))
    }

    func resolve(_ layers: RawLayers) -> ConfigurationResolution<String?> {
        layers.resolve(defaultValue: defaultValueString, decode: { raw in try validate(raw) })
    }

    /// A copy that belongs to `scopeName`.
    func inScope(_ scopeName: String) -> ConfigurationKeyDescriptor {
        ConfigurationKeyDescriptor(storage: Storage(storage, shape: Shape(storage.shape, scopeName: scopeName)))
    }

    /// Whether the key's wire name is `name` (as `name == self.name`, without making the name a string).
    package func hasName(_ name: String) -> Bool {
        var name = name
        return withNameUTF8 { own in
            name.withUTF8 { other in
                if own.elementsEqual(other) { return true }
                // Different bytes can still be the same name, canonically (é as one scalar or two), unless both are ASCII.
                if own.allSatisfy({ $0 < 0x80 }) && other.allSatisfy({ $0 < 0x80 }) { return false }
                return String(decoding: own, as: UTF8.self) == String(decoding: other, as: UTF8.self)
            }
        }
    }

    /// Calls `body` with the wire name's UTF-8, without making a string of it.
    package func withNameUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try storage.text.withUTF8 { name, _ in try body(name) }
    }

    /// Calls `body` with the wire name's and the title's UTF-8, without making strings of them.
    package func withNameAndTitleUTF8<Result>(
        _ body: (_ name: UnsafeBufferPointer<UInt8>, _ title: UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        try storage.text.withUTF8(body)
    }

    /// `name (scope, type)`.
    public var description: String { "\(name) (\(scopeName.isEmpty ? "?" : scopeName), \(valueTypeName))" }

    private static func erasedControl<K: ConfigurationKey>(of key: K.Type) -> ConfigurationDebugControl {
        switch K.debugControlType {
        case .toggle: .toggle
        case .text: .text
        case .json: .json
        case .number(let kind, let range): .number(kind, range)
        case .picker(let choices):
            .picker(
                choices.compactMap { choice in
                    guard let raw = try? K.encode(choice.value) else { return nil }
                    let enabled = (choice.value as? any ConfigurationExperimentVariant)?.isEnabled
                    return .init(value: raw, title: choice.title ?? raw, isEnabled: enabled)
                }
            )
        }
    }
}
