/// The evaluation context an ``OFREPServerValuesSource`` sends with each bulk evaluation: who the values are for
/// (`targetingKey`) and what the server's targeting rules may look at (region, device model, OS version, app
/// version...).
///
/// ```swift
/// let context = OFREPEvaluationContext(
///     targetingKey: "user-42", attributes: ["country": "JP", "osVersion": "18.2", "appVersion": "14.3.0"])
/// ```
public struct OFREPEvaluationContext: Sendable, Hashable {
    /// The subject of the evaluation (a user, an account, a device), sent as `targetingKey`; `nil` sends none.
    public var targetingKey: String?
    /// The other attributes, sent as strings.
    public var attributes: [String: String]

    /// Creates a context. An attribute named `targetingKey` is refused when the context is sent (give it as
    /// `targetingKey`).
    public init(targetingKey: String? = nil, attributes: [String: String] = [:]) {
        self.targetingKey = targetingKey
        self.attributes = attributes
    }

    /// Whether the context says nothing.
    public var isEmpty: Bool { targetingKey == nil && attributes.isEmpty }

    /// The context as its fields, `targetingKey` first, the attributes by name.
    var fields: [(key: String, value: String)] {
        var fields: [(key: String, value: String)] = []
        if let targetingKey { fields.append(("targetingKey", targetingKey)) }
        for name in attributes.keys.sorted() { fields.append((name, attributes[name]!)) }
        return fields
    }
}
