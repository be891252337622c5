/// What one fetch from a ``ServerValuesSource`` brought.
public enum ServerValuesFetch: Sendable, Hashable {
    /// A complete, valid set of values (HTTP 200), with the validators to send next time.
    case values([String: String], validators: ServerValuesValidators)
    /// Nothing changed since the validators that were sent (HTTP 304); the validators to send next time.
    case notModified(validators: ServerValuesValidators)
}
