public import Foundation

/// Why the override store could not be read or written, with the file's path and what to do.
///
/// ```swift
/// if let error = store.lastError { statusLine = error.description }
/// // /home/qa/.local/state/demo/overrides.json: not valid JSON: duplicate key "a" at line 5, column 5; no override
/// // from this file is applied
/// ```
public struct OverrideStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Kind: String, Sendable, Hashable {
        /// The file's contents were refused whole (not JSON, not this format, too large, a newer version): no override
        /// from it applies. Readers leave it where it is; the next writer moves it aside (``preservedAt``) before
        /// writing a new file, except a newer version's file, which no writer of this build replaces.
        case corrupt
        /// The file or its folder is writable by others or owned by another user, so it is refused untouched.
        case insecure
        /// Reading or writing failed (disk full, read-only folder or file, a lock held too long, a folder where the
        /// file should be, ...). Nothing was changed.
        case io
        /// A change was refused because the file would exceed one of ``OverrideStoreLimits`` (the message names it).
        /// Nothing was written.
        case limitExceeded
        /// The override layer is compiled out of this build (the `DebugOverrides` trait is off).
        case disabled
        /// A change was sent to the store, which did not answer in time (an etcd that hangs): it may have been
        /// made or not, and may still arrive. Read the store again to know; do not report it as saved or as
        /// unsaved. The command-line tool exits 4.
        case outcomeUnknown
    }

    /// The store file.
    public let url: URL
    /// What kind of failure this is.
    public let kind: Kind
    /// The problem, without the path.
    public let problem: String
    /// Where a refused file was moved by a writer before it wrote a new one (``Kind/corrupt`` only).
    public let preservedAt: URL?

    /// How many copies of refused files a store keeps beside itself (the newest ones).
    package static let keptAsideCopies = 5

    /// Creates an error.
    public init(url: URL, kind: Kind, problem: String, preservedAt: URL? = nil) {
        self.url = url
        self.kind = kind
        self.problem = problem
        self.preservedAt = preservedAt
    }

    /// The whole message: the path, the problem and what happened to the file.
    public var description: String {
        var text = "\(url.isFileURL ? url.path : url.absoluteString): \(problem)"
        if let preservedAt {
            text +=
                ". The file was moved aside to \(preservedAt.path) (the \(Self.keptAsideCopies) newest such "
                + "copies are kept) and a new file was written; overrides from the old one are not applied"
        } else if kind == .corrupt {
            text += "; no override from this file is applied (the file is left as it is)"
        }
        return text
    }
}
