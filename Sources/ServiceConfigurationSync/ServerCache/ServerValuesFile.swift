public import Foundation
import ServiceConfigurationCore
import ServiceConfigurationFiles

/// A JSON file of server values: one object mapping key names to wire strings, as a program last received them.
///
/// A program saves its last sync so that a standalone tool can show the same server layer
/// (`config-menu --manifest app.manifest.json --server-values last-sync.json`):
///
/// ```swift
/// try ServerValuesFile.write(service.serverValues, to: URL(fileURLWithPath: "last-sync.json"))   // the program
/// let values = try ServerValuesFile.read(from: URL(fileURLWithPath: "last-sync.json"))            // a tool
/// ```
///
/// Reading refuses, naming the file (and the key where there is one), anything that is not such an object: invalid
/// JSON, another top-level value, a value that is not a string (numbers and Booleans are not wire strings: write
/// `"4"` and `"Y"`), and files over ``sizeLimit``.
public enum ServerValuesFile {
    /// The largest file read: 64 MiB.
    public static let sizeLimit = 64 << 20

    /// The values in the file at `url`.
    public static func read(from url: URL) throws(ServerValuesFileError) -> [String: String] {
        let fail = { (problem: String) in ServerValuesFileError(url: url, problem: problem) }
        let data: Data
        do throws(BoundedFileReader.Failure) {
            let options = BoundedFileReader.Options(limit: sizeLimit, readsStreams: true)
            data = Data(try BoundedFileReader.read(url.path, options) ?? [])
        } catch {
            guard case .tooLarge = error.reason else {
                throw fail("cannot read the server values (\(error.problem))")
            }
            throw fail("larger than \(sizeLimit >> 20) MiB; this is not a file of server values")
        }
        let object: [String: ConfigurationJSONValue]
        do {
            object = try JSONDecoder().decode([String: ConfigurationJSONValue].self, from: data)
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            let kind =
                (try? JSONDecoder().decode(ConfigurationJSONValue.self, from: data)).map(Self.kind) ?? "another value"
            throw fail("expected a JSON object of key names to strings, found \(kind)")
        } catch let error as DecodingError {
            throw fail(ConfigurationDecodingError(jsonError: error, in: data).description)
        } catch {
            throw fail("not valid JSON: \(error.localizedDescription)")
        }
        var values: [String: String] = [:]
        values.reserveCapacity(object.count)
        for (name, value) in object.sorted(by: { $0.key < $1.key }) {
            guard case .string(let string) = value else {
                throw fail(
                    "the value of \"\(VisibleText.escaped(name))\" must be a string (wire format), found \(kind(of: value)); write it in quotes"
                )
            }
            values[name] = string
        }
        return values
    }

    /// Writes `values` to `url` atomically, as indented JSON with sorted keys.
    public static func write(_ values: [String: String], to url: URL) throws(ServerValuesFileError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try (encoder.encode(values) + Data([0x0A])).write(to: url, options: .atomic)
        } catch {
            throw ServerValuesFileError(
                url: url, problem: "cannot write the server values (\((error as NSError).localizedDescription))")
        }
    }

    private static func kind(of value: ConfigurationJSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "true or false"
        case .integer, .unsigned, .double, .decimal: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A file of server values that could not be read or written, naming the file and the problem.
public struct ServerValuesFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file.
    public var url: URL
    /// What is wrong, naming the key where there is one.
    public var problem: String

    /// Creates an error.
    public init(url: URL, problem: String) {
        self.url = url
        self.problem = problem
    }

    /// `<path>: <problem>`.
    public var description: String { "\(VisibleText.escaped(url.path)): \(problem)" }
}
