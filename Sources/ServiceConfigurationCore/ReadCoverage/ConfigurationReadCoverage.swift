public import Foundation

/// Which keys a program read in this run, and when: for QA ("I changed this flag: did the app read it on the
/// screens I tested?") and UI-test pipelines.
///
/// ```swift
/// let coverage = service.readCoverage()
/// if let read = coverage.read(named: "function.album.like.enabled") {
///     print("first read at", read.firstRead, read.currentValueFirstRead == nil ? "(changed since)" : "")
/// }
/// for key in coverage.unregistered { print(key) }   // read, but not in the catalog
/// ```
///
/// A read is a typed read of the service (a property, `service[Key.self]`, ``ConfigurationReader/resolution(of:)``)
/// or of a snapshot taken from it. The string-level API the debug tools use (`resolution(forKeyNamed:)`) is not a
/// read of the program.
public struct ConfigurationReadCoverage: Sendable, Hashable {
    /// One key the program read.
    public struct Read: Sendable, Hashable {
        /// The key's wire name.
        public var name: String
        /// When the program first read the key in this run.
        public var firstRead: Date
        /// When the program first read the value in effect now; `nil` when the key's value changed after its last
        /// read (for example, an override was set) and the program has not read it since.
        ///
        /// "The value" means the key's wire strings (override and server value): a value that changes and changes
        /// back counts as read.
        public var currentValueFirstRead: Date?
        /// The distinct values the program read, as the wire strings of the values it used (its own `encode` of
        /// what it decoded: the default's when neither an override nor a server value applied), in the order it
        /// first read them; at most 16, each cut to 256 characters and `…`.
        ///
        /// A value is noted when the program first reads it after a change (the moment
        /// ``currentValueFirstRead`` records), never on a warm read.
        public var values: [String]
        /// How many times the program read a changed value after ``values`` was full (a value read again after
        /// others counts again); 0 when every value read is in ``values``.
        public var valuesOmitted: Int

        /// Creates a read.
        public init(
            name: String, firstRead: Date, currentValueFirstRead: Date?, values: [String] = [], valuesOmitted: Int = 0
        ) {
            self.name = name
            self.firstRead = firstRead
            self.currentValueFirstRead = currentValueFirstRead
            self.values = values
            self.valuesOmitted = valuesOmitted
        }
    }

    /// Every key read, sorted by name.
    public var reads: [Read]
    /// Keys read whose scope is not in the service's catalog, sorted by name.
    public var unregistered: [UnregisteredConfigurationKey]
    /// Whether the service records reads (see ``LiveConfigurationService/Options/recordsReads``); when it does not,
    /// ``reads`` is empty and only ``unregistered`` is kept.
    public var isRecording: Bool

    /// Creates a coverage value.
    public init(reads: [Read], unregistered: [UnregisteredConfigurationKey], isRecording: Bool) {
        self.reads = reads
        self.unregistered = unregistered
        self.isRecording = isRecording
    }

    /// The read of the key named `name`, or `nil` when the program has not read it (a binary search: ``reads`` is
    /// sorted by name).
    public func read(named name: String) -> Read? {
        var low = 0
        var high = reads.count
        while low < high {
            let middle = (low + high) / 2
            if reads[middle].name < name { low = middle + 1 } else { high = middle }
        }
        return low < reads.count && reads[low].name == name ? reads[low] : nil
    }
}
