public import Foundation

/// A manifest that could not be read, naming the file and what is wrong where.
public struct ConfigurationManifestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The manifest file, if it came from one.
    public var url: URL?
    /// The problem, with the path inside the document (`scopes[2].keys[0].control.kind: ...`).
    public var problem: String

    /// Creates an error.
    public init(url: URL?, problem: String) {
        self.url = url
        self.problem = problem
    }

    /// `<path>: <problem>`.
    public var description: String {
        url.map { "\(VisibleText.escaped($0.path)): \(problem)" } ?? problem
    }
}
