package import Foundation

/// Any JSON value, decoded and encoded by Foundation exactly as a key's `Codable` value is.
///
/// A tool that knows a JSON key only from the catalog manifest stores its values in the form this type encodes to,
/// which is the form the program's own key writes for the same document: `JSONEncoder` with sorted keys and
/// unescaped slashes, no insignificant space, numbers as the program's numeric types print them (an integral
/// number within 64 bits as an integer, `1.0` and `1e3` as `1` and `1000`; any other number in the shortest form
/// that reads back as the same `Double`, or with all its digits when it is a whole number no `Double` holds), and
/// members whose value is `null` left out (as a `Codable` type leaves out an optional property that is `nil`).
package enum ConfigurationJSONValue: Sendable, Hashable, Codable, ConfigurationValueJSONRepresentable {
    case null
    case bool(Bool)
    case integer(Int64)
    case unsigned(UInt64)
    case double(Double)
    /// A number no `Double` or 64-bit integer holds exactly, kept with its digits.
    case decimal(Decimal)
    case string(String)
    case array([ConfigurationJSONValue])
    case object([String: ConfigurationJSONValue])

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
            return
        }
        // Each kind is tried in turn; "not this kind here" moves on, any deeper error (a bad number inside an array)
        // is the answer, so messages point at the real problem.
        func isOtherKind(_ error: any Error) -> Bool {
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.count == decoder.codingPath.count
        }
        do {
            self = .bool(try container.decode(Bool.self))
            return
        } catch  where isOtherKind(error) {}
        do {
            self = .string(try container.decode(String.self))
            return
        } catch  where isOtherKind(error) {}
        do {
            self = .array(try container.decode([ConfigurationJSONValue].self))
            return
        } catch  where isOtherKind(error) {}
        do {
            self = .object(try container.decode([String: ConfigurationJSONValue].self))
            return
        } catch  where isOtherKind(error) {}
        if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(UInt64.self) {
            self = .unsigned(value)
        } else {
            let value: Double
            do {
                value = try container.decode(Double.self)
            } catch {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "a number no Double can hold (\(error))"))
            }
            // A whole number that no Double holds exactly (more than 17 significant digits) keeps its digits, as a
            // program's own big-number type would; every other number is a Double, as a program's `Double` field
            // reads and prints it (`2.5000000000000001e-05` is 2.5e-05).
            if let exact = try? container.decode(Decimal.self), Self.isWhole(exact),
                Decimal(string: value.description) != exact
            {
                self = .decimal(exact)
            } else {
                self = .double(value)
            }
        }
    }

    private static func isWhole(_ number: Decimal) -> Bool {
        var value = number
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 0, .plain)
        return rounded == number
    }

    /// Encodes the value; members whose value is `null` are left out of objects, as a program's `Codable` type
    /// leaves out an optional property that is `nil`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .unsigned(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .decimal(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value.filter { $0.value != .null })
        }
    }
}
