/// What one fetch from a ``ServerValuesSource`` brought.
public enum ServerValuesFetch: Sendable, Hashable {
    /// A complete, valid set of values (HTTP 200), with the validators to send next time.
    case values([String: String], validators: ServerValuesValidators)
    /// Nothing changed since the validators that were sent (HTTP 304); the validators to send next time.
    case notModified(validators: ServerValuesValidators)
    /// A complete, valid set of values from a server that evaluates flags (OFREP), with what it said about each key
    /// (variant, reason, or why its evaluation failed: such a key has no value), and the validators to send next
    /// time.
    case evaluated([String: String], evaluations: [String: ServerValueEvaluation], validators: ServerValuesValidators)

    /// The values of a complete set (``values(_:validators:)`` or ``evaluated(_:evaluations:validators:)``), `nil`
    /// for ``notModified(validators:)``.
    public var values: [String: String]? {
        switch self {
        case .values(let values, _), .evaluated(let values, _, _): values
        case .notModified: nil
        }
    }

    /// The validators to send next time.
    public var validators: ServerValuesValidators {
        switch self {
        case .values(_, let validators), .evaluated(_, _, let validators), .notModified(let validators): validators
        }
    }
}
