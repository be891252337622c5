import Foundation

/// A regular expression that every wire string of a key must match as a whole, with the format to name in errors.
///
/// The program checks it in ``ConfigurationKey/decode(from:)``; the catalog manifest carries it, so a tool that
/// does not link the program (`config-menu --manifest`) refuses the same strings with the same message. Declare it
/// on a custom string type, or on one key:
///
/// ```swift
/// struct MoneyAmount: ConfigurationValueStringRepresentable {
///     static let configurationValuePattern = ConfigurationValuePattern(
///         "[0-9]+ [A-Z]{3}", format: "AMOUNT CURRENCY such as 20 EUR")
///     ...
/// }
/// ```
///
/// The syntax is ICU's, as `NSRegularExpression` reads it on every platform (`[0-9]`, `\d`, `{1,3}`, `(a|b)`,
/// `(?i)` for case-insensitive). The whole string must match: the expression is anchored at both ends. A match
/// that backtracks without end (`(a+)+` on a long run of `a`) is stopped after a fixed amount of work and counts
/// as no match, so a hostile manifest cannot hang a tool. Keep the expression as strict as the type's parser: a
/// tool can only check what the pattern says.
public struct ConfigurationValuePattern: Sendable, Hashable, CustomStringConvertible {
    /// One word per key (`nil` for ``any``): catalogs keep a pattern in every key's descriptor.
    private let storage: Storage?

    /// Any string passes (the codec alone decides).
    public static let any = ConfigurationValuePattern(storage: nil)

    /// A pattern from an ICU regular expression that must match the whole wire string, and an optional description
    /// of the format for error messages (default: "text matching /<expression>/").
    public init(_ regularExpression: String, format: String? = nil) {
        self.init(storage: Storage(regularExpression, format: format))
    }

    private init(storage: Storage?) {
        self.storage = storage
    }

    /// The regular expression, or `nil` for ``any``.
    public var regularExpression: String? { storage?.source }

    /// What a valid string looks like, for "expected …" messages; `nil` to describe the expression itself.
    public var format: String? { storage?.format }

    /// Whether this is ``any``.
    public var isAny: Bool { storage == nil }

    /// What a matching string looks like: ``format``, or the expression between slashes.
    public var expectation: String {
        VisibleText.escaped(format ?? regularExpression.map { "text matching /\($0)/" } ?? "any text")
    }

    /// The expression between slashes, or `any`.
    public var description: String { regularExpression.map { "/\($0)/" } ?? "any" }

    /// Why the expression cannot be used, or `nil` when it compiles.
    public var problem: String? { storage?.problem }

    /// Throws `expected <format>, got "<string>"` unless `string` matches as a whole; an expression that does not
    /// compile rejects every string, saying so.
    public func check(_ string: String) throws(ConfigurationDecodingError) {
        guard let storage else { return }
        guard let expression = storage.expression else {
            throw ConfigurationDecodingError(
                "the key's pattern \(description) is not a valid regular expression (\(storage.problem ?? "unknown"))")
        }
        var matched = false
        var progressCalls = 0
        var exhausted = false
        let whole = NSRange(location: 0, length: (string as NSString).length)
        expression.enumerateMatches(in: string, options: [.reportProgress], range: whole) { match, _, stop in
            if match != nil {
                matched = true
                stop.pointee = true
                return
            }
            progressCalls += 1
            if progressCalls > Self.progressBudget {
                exhausted = true
                stop.pointee = true
            }
        }
        if matched { return }
        if exhausted {
            throw ConfigurationDecodingError(
                "expected \(expectation), got \(ConfigurationDecodingError.quoted(string)) "
                    + "(the pattern needed too much work to decide)")
        }
        throw ConfigurationDecodingError(expected: expectation, got: string)
    }

    /// Progress reports (each after some thousands of matching steps) allowed before a match is abandoned.
    static let progressBudget = 100

    /// Equal when the expressions and the formats are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.regularExpression == rhs.regularExpression && lhs.format == rhs.format
    }

    /// Hashes the expression and the format.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(regularExpression)
        hasher.combine(format)
    }

    /// The expression as written and compiled once, anchored at both ends.
    private final class Storage: Sendable {
        let source: String
        let format: String?
        let expression: NSRegularExpression?
        let problem: String?

        init(_ source: String, format: String?) {
            self.source = source
            self.format = format
            do {
                // Compiled alone first, so `a)|(b` cannot escape the anchoring group below.
                _ = try NSRegularExpression(pattern: source)
                expression = try NSRegularExpression(pattern: "\\A(?:" + source + ")\\z")
                problem = nil
            } catch {
                expression = nil
                problem = "\((error as NSError).localizedDescription)"
            }
        }
    }
}
