import Foundation

/// What the engine records about reads, kept in the engine's state (under its one lock).
struct ReadCoverageState: Sendable {
    /// One key read at least once.
    struct Record: Sendable {
        /// The key type, to name its scope if the key turns out to be unregistered.
        var keyType: any ConfigurationKey.Type
        var firstRead: Date
        /// The wire strings in effect at the latest read, and when a read first saw them.
        var layers: RawLayers
        var layersFirstRead: Date
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
    /// read of changed layers).
    mutating func recordRead(of name: String, keyType: any ConfigurationKey.Type, layers: RawLayers) -> Bool {
        if let record = reads[name] {
            guard record.layers != layers else { return false }
            reads[name]?.layers = layers
            reads[name]?.layersFirstRead = Date()
            return true
        }
        let now = Date()
        reads[name] = Record(keyType: keyType, firstRead: now, layers: layers, layersFirstRead: now)
        return true
    }
}
