package import Foundation

/// A compound value that travels as JSON text in the configuration wire format.
///
/// `Codable` types get the implementation for free: declare the conformance and nothing else.
/// Arrays of `Codable` elements and `[String: Codable]` dictionaries conform out of the box.
///
/// ```swift
/// struct UploadPolicy: Codable, Equatable, ConfigurationValueJSONRepresentable {
///     var maxBytes: Int
///     var allowedTypes: [String]
/// }
/// ```
///
/// Keys whose value conforms get the JSON editor as their debug control.
public protocol ConfigurationValueJSONRepresentable {
    /// Creates a value from JSON text, or throws a ``ConfigurationDecodingError`` that says what is wrong.
    init(configurationJSON json: String) throws(ConfigurationDecodingError)

    /// The value as compact JSON text with sorted keys, so equal values give equal strings.
    func configurationJSON() throws(ConfigurationDecodingError) -> String
}

extension ConfigurationValueJSONRepresentable where Self: Codable {
    /// Decodes with `JSONDecoder`; the error names the path and the problem (`at rules[0].maxBytes: expected Int`).
    public init(configurationJSON json: String) throws(ConfigurationDecodingError) {
        let data = Data(json.utf8)
        do {
            self = try JSONDecoder().decode(Self.self, from: data)
        } catch let error as DecodingError {
            throw ConfigurationDecodingError(jsonError: error, in: data)
        } catch {
            throw ConfigurationDecodingError("invalid JSON: \(error.localizedDescription)")
        }
    }

    /// Encodes with `JSONEncoder` using sorted keys and unescaped slashes.
    public func configurationJSON() throws(ConfigurationDecodingError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(self), as: UTF8.self)
        } catch {
            throw ConfigurationDecodingError("cannot be encoded as JSON: \(error.localizedDescription)")
        }
    }
}

extension Array: ConfigurationValueJSONRepresentable where Element: Codable {}
extension Dictionary: ConfigurationValueJSONRepresentable where Key == String, Value: Codable {}

extension ConfigurationDecodingError {
    /// Like ``init(jsonError:)``, but a syntax error says what and where (`JSONDecoder` only says "not valid JSON";
    /// `JSONSerialization` reading the same bytes says "Unexpected end of file", "Invalid value around character 8").
    package init(jsonError error: DecodingError, in data: Data) {
        if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
            if let problem = Self.jsonSyntaxProblem(in: data) {
                self.init("not valid JSON: \(problem)")
            } else {
                // Well-formed JSON that JSONDecoder still calls "not valid JSON": it does so for a number its field
                // cannot hold in that spelling (an Int written 9223372036854775807.0).
                self.init(
                    "invalid JSON value: Foundation's JSONDecoder refused it without saying where (usually a number "
                        + "too large for its field)")
            }
        } else {
            self.init(jsonError: error)
        }
    }

    /// Foundation's description of why `data` is not JSON, in lower case without the final full stop; `nil` when it
    /// is JSON.
    static func jsonSyntaxProblem(in data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            var text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
            if text.hasSuffix(".") { text.removeLast() }
            return text.prefix(1).lowercased() + text.dropFirst()
        }
    }

    /// Turns Foundation's `DecodingError` into one readable line: where in the document, and what went wrong.
    init(jsonError error: DecodingError) {
        func path(_ context: DecodingError.Context, appending key: (any CodingKey)? = nil) -> String {
            var text = ""
            for component in context.codingPath + (key.map { [$0] } ?? []) {
                if let index = component.intValue {
                    text += "[\(index)]"
                } else {
                    text += text.isEmpty ? component.stringValue : ".\(component.stringValue)"
                }
            }
            return text.isEmpty ? "" : "at \(text): "
        }
        switch error {
        case .typeMismatch(let type, let context):
            self.init("invalid JSON value: \(path(context))expected \(Self.jsonTypeName(type))")
        case .valueNotFound(let type, let context):
            self.init("invalid JSON value: \(path(context))expected \(Self.jsonTypeName(type)), found null")
        case .keyNotFound(let key, let context):
            self.init("invalid JSON value: \(path(context))missing key \"\(key.stringValue)\"")
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            let detail = underlying ?? context.debugDescription
            self.init(
                context.codingPath.isEmpty
                    ? "not valid JSON: \(detail)" : "invalid JSON value: \(path(context))\(detail)")
        @unknown default:
            self.init("invalid JSON: \(error.localizedDescription)")
        }
    }

    private static func jsonTypeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is any BinaryInteger.Type: "an integer"
        case is any BinaryFloatingPoint.Type: "a number"
        case is [Any].Type: "an array"
        case is [String: Any].Type: "an object"
        default: "\(type)"
        }
    }
}
