/// Why a wire string could not be decoded into a key's value.
///
/// Thrown by ``ConfigurationKey/decode(from:)``; its ``description`` is shown to people (in the debug menu, in
/// the command-line tool and in ``ConfigurationRejection/reason``), so it says what was expected and what came.
///
/// ```swift
/// throw ConfigurationDecodingError(expected: "Y or N", got: "yes")  // expected Y or N, got "yes"
/// ```
public struct ConfigurationDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The whole human-readable message, for example `expected Y or N, got "yes"`.
    public var description: String

    /// Creates an error with a free-form message.
    public init(_ message: String) {
        self.description = message
    }

    /// Creates the usual "expected X, got Y" message; long input is shortened so the message stays readable.
    public init(expected: String, got string: String) {
        self.description = "expected \(expected), got \(Self.quoted(string))"
    }

    /// `string` in double quotes, with control characters escaped and anything past 60 characters elided.
    static func quoted(_ string: String) -> String {
        var shown = string.count > 60 ? String(string.prefix(57)) + "..." : string
        shown = shown.unicodeScalars.map { scalar in
            switch scalar {
            case "\n": "\\n"
            case "\t": "\\t"
            case "\"": "\\\""
            default:
                scalar.properties.generalCategory == .control
                    ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
            }
        }.joined()
        return "\"\(shown)\""
    }
}
