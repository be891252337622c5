import Foundation

/// What the engine records about reads, kept in the engine's state (under its one lock).
struct ReadCoverageState: Sendable {
    /// The most distinct values kept per key (see ``ConfigurationReadCoverage/Read/values``).
    static let keptValues = 16
    /// The longest value kept, in characters; a longer one is kept as its first this many and `…`.
    static let maximumValueLength = 256

    /// One key read at least once.
    struct Record: Sendable {
        /// The key type, to name its scope if the key turns out to be unregistered.
        var keyType: any ConfigurationKey.Type
        var firstRead: Date
        /// The wire strings in effect at the latest read, and when a read first saw them.
        var layers: RawLayers
        var layersFirstRead: Date
        /// The distinct layers a read saw first (at most ``keptValues``), each with the wire value the program used,
        /// worked out on demand by ``ConfigurationEngine/readCoverage()`` (never on the read path). Empty until the
        /// value is worked out or the layers change, so a first read allocates nothing for it: while empty, the
        /// only value read is the one of ``layers``.
        var seen: [SeenValue] = []
        /// Reads of changed layers not kept in ``seen`` because it was full.
        var valuesOmitted = 0
    }

    /// Layers a read saw, and once worked out, the wire string of the value the program used with them.
    struct SeenValue: Sendable {
        var layers: RawLayers
        /// `nil` until worked out; `.some(nil)` when the value has no wire form.
        var value: String??
    }

    /// An override and its value, for warning once about each rejected one.
    struct OverrideValue: Sendable, Hashable {
        var name: String
        var value: String
    }

    var reads: [String: Record] = [:]
    var unregistered: [String: UnregisteredConfigurationKey] = [:]
    var warnedRejections: Set<OverrideValue> = []
    /// The last verdict of the key's `decode` on each overridden value: `nil` accepted, otherwise the reason.
    var overrideVerdicts: [OverrideValue: String?] = [:]

    /// Records a read that saw `layers`; returns whether anything new was recorded (a first read, or the first
    /// read of changed layers). Keeps the layers of each new value (an append to a short array: the read path pays
    /// nothing more, since this runs only when the key's layers changed).
    mutating func recordRead(of name: String, keyType: any ConfigurationKey.Type, layers: RawLayers) -> Bool {
        if let record = reads[name] {
            guard record.layers != layers else { return false }
            reads[name]?.layers = layers
            reads[name]?.layersFirstRead = Date()
            if record.seen.isEmpty { reads[name]?.seen.append(SeenValue(layers: record.layers, value: nil)) }
            if !record.seen.contains(where: { $0.layers == layers }) {
                if (reads[name]?.seen.count ?? 0) < Self.keptValues {
                    reads[name]?.seen.append(SeenValue(layers: layers, value: nil))
                } else {
                    reads[name]?.valuesOmitted += 1
                }
            }
            return true
        }
        let now = Date()
        reads[name] = Record(keyType: keyType, firstRead: now, layers: layers, layersFirstRead: now)
        return true
    }

    /// The distinct wire values of `record`'s worked-out reads, in the order they were first read.
    static func values(of record: Record) -> [String] {
        var values: [String] = []
        for case .some(.some(let value)) in record.seen.map(\.value) where !values.contains(value) {
            values.append(value)
        }
        return values
    }

    /// The wire string of the value a program reading `keyType` used with `layers` (its own decoding and bounds,
    /// then its own encoding), shortened to ``maximumValueLength``; `nil` when the value has no wire form.
    static func wireValue(
        of keyType: any ConfigurationKey.Type, layers: RawLayers, descriptor: ConfigurationKeyDescriptor?
    ) -> String? {
        func value<K: ConfigurationKey>(_ key: K.Type) -> String? {
            let resolution = layers.resolve(K.self, range: K.numberRange(describedBy: descriptor))
            guard let encoded = try? K.encode(resolution.value) else { return nil }
            guard encoded.count > maximumValueLength else { return encoded }
            return String(encoded.prefix(maximumValueLength)) + "…"
        }
        return value(keyType)
    }
}
