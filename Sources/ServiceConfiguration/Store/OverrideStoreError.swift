public import Foundation

/// Why the override store could not be read or written, with the file's path and what to do.
///
/// ```swift
/// if let error = store.lastError { statusLine = error.description }
/// // /home/qa/.local/state/demo/overrides.json: not valid JSON: duplicate key "a" at line 5, column 5.
/// // The file was moved aside to .../overrides.json.corrupt-20261129T140500Z; overrides from it are not applied.
/// ```
public struct OverrideStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Kind: String, Sendable, Hashable {
        /// The file's contents were refused (not JSON, wrong types, too large, a newer format, ...). The file was
        /// moved aside, never overwritten.
        case corrupt
        /// The file or its folder is writable by others or owned by another user, so it is refused untouched.
        case insecure
        /// Reading or writing failed (disk full, read-only folder, ...). Nothing was changed.
        case io
        /// The override layer is compiled out of this build (the `DebugOverrides` trait is off).
        case disabled
    }

    /// The store file.
    public let url: URL
    /// What kind of failure this is.
    public let kind: Kind
    /// The problem, without the path.
    public let problem: String
    /// Where a refused file was moved (``Kind/corrupt`` only).
    public let preservedAt: URL?

    /// Creates an error.
    public init(url: URL, kind: Kind, problem: String, preservedAt: URL? = nil) {
        self.url = url
        self.kind = kind
        self.problem = problem
        self.preservedAt = preservedAt
    }

    /// The whole message: the path, the problem and what happened to the file.
    public var description: String {
        var text = "\(url.path): \(problem)"
        if let preservedAt {
            text += ". The file was moved aside to \(preservedAt.path); overrides from it are not applied"
        }
        return text
    }
}
