/// What a server that evaluates flags (OFREP) said about one key beside its value: the variant it chose, why, and,
/// when the evaluation failed, the error code and details. A source of plain values (HTTP, etcd) has none.
///
/// ```swift
/// if let evaluation = sync.status.evaluations["checkout.new-flow"] {
///     print(evaluation.variant ?? "-", evaluation.reason ?? "-")   // on TARGETING_MATCH
///     print(evaluation.errorCode ?? "no error")                     // FLAG_NOT_FOUND, TYPE_MISMATCH, ...
/// }
/// ```
///
/// A key whose evaluation failed has no server value: it falls back to its default, as for any rejected server
/// value, and ``rejection`` says why.
public struct ServerValueEvaluation: Sendable, Hashable {
    /// The variant the server chose (`on`, `treatment-b`), if it said.
    public var variant: String?
    /// Why the server chose it: `STATIC`, `TARGETING_MATCH`, `SPLIT`, `DEFAULT`, `DISABLED`, `ERROR`, ... (an open
    /// set), if it said.
    public var reason: String?
    /// The evaluation's error code (`FLAG_NOT_FOUND`, `TYPE_MISMATCH`, `PARSE_ERROR`, `GENERAL`, ...), when it
    /// failed.
    public var errorCode: String?
    /// The server's words about the failure, if any.
    public var errorDetails: String?

    /// Creates an evaluation record.
    public init(variant: String? = nil, reason: String? = nil, errorCode: String? = nil, errorDetails: String? = nil) {
        self.variant = variant
        self.reason = reason
        self.errorCode = errorCode
        self.errorDetails = errorDetails
    }

    /// Why the key has no server value, when the evaluation failed: `PARSE_ERROR: targeting resolved to 'x'`.
    public var rejection: String? {
        guard let errorCode else { return nil }
        return errorDetails.map { "\(errorCode): \($0)" } ?? errorCode
    }

    /// The variant and reason as the menu shows them after the value: `variant on · TARGETING_MATCH`; empty when
    /// the server said neither.
    public var summary: String {
        [variant.map { "variant \($0)" }, reason].compactMap { $0 }.joined(separator: " · ")
    }
}
