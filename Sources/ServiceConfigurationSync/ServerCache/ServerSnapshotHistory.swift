package import Foundation
import ServiceConfigurationCore
package import ServiceConfigurationFiles

/// The server values a sync applied, newest last, kept beside the snapshot so a tool can tell what a program saw at
/// a past time (`config-menu at TIME`): `server-snapshot.json.history`.
///
/// A sync adds an entry when the values it applied differ from the newest entry's (or the history has none), so
/// each entry holds the values from its time until the next entry's. The history is bounded: the newest
/// ``maximumCount`` entries, and no more than fit in ``maximumFileSize`` (the oldest go first). A snapshot too large
/// to keep alone is recorded without its values (``Entry/values`` is `nil`): a reader then knows the values of that
/// time are unknown rather than taking the older ones for them.
///
/// Format (version 1), one entry per line:
///
/// ```json
/// {"format": "service-configuration-server-history", "version": 1, "snapshots": [
/// {"at": "2026-12-04T14:00:03.120Z", "source": "https://config.example.com/values.json", "values": {"a": "Y"}},
/// {"at": "2026-12-04T14:20:09.004Z", "source": "https://config.example.com/values.json", "valuesOmitted": 120000}
/// ]}
/// ```
///
/// Written as the snapshot is: under an exclusive lock on `server-snapshot.json.history.lock` (read, add, trim,
/// replace atomically), so syncs of several processes lose no entry. Read with the store's checks: a file another
/// user owns or others can write, a link in a confined folder, or anything not this format is refused, naming it.
package struct ServerSnapshotHistory: Sendable {
    /// The format's name in the file.
    package static let formatName = "service-configuration-server-history"
    /// The format's version; a newer one is refused.
    package static let version = 1
    /// The most entries kept: the newest 50.
    package static let maximumCount = 50
    /// The largest history written: 4 MiB (the oldest entries are dropped to stay under it).
    package static let maximumFileSize = 4 << 20

    /// One applied set of server values.
    package struct Entry: Sendable, Hashable {
        /// When the sync applied them.
        package var at: Date
        /// Where they came from (the sync's source location).
        package var source: String
        /// The values; `nil` when they were too large to keep (then ``keyCount`` says how many there were).
        package var values: [String: String]?
        /// How many values there were.
        package var keyCount: Int

        package init(at: Date, source: String, values: [String: String]?, keyCount: Int? = nil) {
            self.at = Timestamp.truncatedToMilliseconds(at)
            self.source = source
            self.values = values
            self.keyCount = keyCount ?? values?.count ?? 0
        }
    }

    /// The history file.
    package let file: StoreFile

    /// The history beside the snapshot at `snapshotURL` (`<snapshot>.history`); `confinedTo` as for the snapshot.
    package init(snapshotURL: URL, faults: StoreFaultInjector? = nil, confinedTo confinement: URL? = nil) {
        file = StoreFile(url: Self.url(forSnapshotAt: snapshotURL), faults: faults, confinedTo: confinement)
    }

    /// The history's file beside the snapshot at `snapshotURL`.
    package static func url(forSnapshotAt snapshotURL: URL) -> URL {
        URL(fileURLWithPath: snapshotURL.standardizedFileURL.path + ".history")
    }

    /// The entries, oldest first (none when there is no file), or why the file is refused.
    package func load() -> Result<[Entry], SnapshotProblem> {
        let loaded: (bytes: [UInt8], fingerprint: FileFingerprint)?
        do throws(StoreFile.Failure) {
            loaded = try file.load()
        } catch {
            return .failure(SnapshotProblem("\(file.path): \(error.problem)"))
        }
        guard let bytes = loaded?.bytes else { return .success([]) }
        do {
            return .success(try Self.parse(bytes))
        } catch {
            return .failure(SnapshotProblem("\(file.path): \(error.description)"))
        }
    }

    /// Adds `values` (applied at `at` from `source`) unless the newest entry already holds them, then trims the
    /// history to its bounds; `nil` when done, else the problem (the sync itself stands). A history that is not this
    /// format is moved aside (`.corrupt-TIMESTAMP`) and a new one started; one another user could have written is
    /// left alone.
    package func record(_ values: [String: String], source: String, at: Date) -> SnapshotProblem? {
        do throws(StoreFile.Failure) {
            return try file.withExclusiveLock { target throws(StoreFile.Failure) -> SnapshotProblem? in
                var entries: [Entry] = []
                var unreadable = false
                do throws(StoreFile.Failure) {
                    if let loaded = try file.load() {
                        if let parsed = try? Self.parse(loaded.bytes) { entries = parsed } else { unreadable = true }
                    }
                } catch {
                    // Too large, or not a regular file: moved aside below when it is a file; refused otherwise.
                    guard error.kind == .corrupt else { throw error }
                    unreadable = true
                }
                let movedAside = unreadable ? try file.moveAside(target) : nil
                if let newest = entries.last, newest.source == source, newest.values == values { return nil }
                entries.append(Entry(at: at, source: source, values: values))
                _ = try file.replace(target, with: Self.encoded(entries))
                return movedAside.map {
                    SnapshotProblem("\(file.path) was not a server history; moved to \($0.path), a new one started")
                }
            }
        } catch {
            return SnapshotProblem("\(file.path): \(error.problem)")
        }
    }

    // MARK: The file

    /// Why a history file's contents were refused.
    package struct FormatError: Error, Sendable, Hashable, CustomStringConvertible {
        package var description: String
        init(_ description: String) { self.description = description }
    }

    /// `entries` as the file holds them: the newest ``maximumCount`` that fit in ``maximumFileSize``; a newest entry
    /// that does not fit alone is written without its values.
    static func encoded(_ entries: [Entry]) -> [UInt8] {
        let head = Array(
            "{\"format\": \"\(formatName)\", \"version\": \(version), \"snapshots\": [\n".utf8)
        let tail = Array("\n]}\n".utf8)
        var budget = maximumFileSize - head.count - tail.count
        var lines: [[UInt8]] = []
        for entry in entries.suffix(maximumCount).reversed() {
            var line = encoded(entry)
            if line.count + 2 > budget {
                guard lines.isEmpty else { break }
                line = encoded(Entry(at: entry.at, source: entry.source, values: nil, keyCount: entry.keyCount))
            }
            budget -= line.count + 2
            lines.append(line)
        }
        var bytes = head
        for (offset, line) in lines.reversed().enumerated() {
            if offset > 0 { bytes += [UInt8(ascii: ","), 0x0A] }
            bytes += line
        }
        return bytes + tail
    }

    private static func encoded(_ entry: Entry) -> [UInt8] {
        var members: [(key: String, value: JSONValue)] = [
            ("at", .string(Timestamp.format(entry.at))), ("source", .string(entry.source)),
        ]
        if let values = entry.values {
            members.append(
                ("values", .object(values.keys.sorted(by: KeyNameOrder.precedes).map { ($0, .string(values[$0]!)) })))
        } else {
            members.append(("valuesOmitted", .number(String(entry.keyCount))))
        }
        var line: [UInt8] = []
        JSONWriter.append(.object(members), to: &line)
        return line
    }

    /// The entries of a history file, oldest first.
    static func parse(_ bytes: [UInt8]) throws(FormatError) -> [Entry] {
        let root: JSONValue
        do {
            root = try StrictJSON.parse(bytes)
        } catch {
            throw FormatError("not a server history (\(error))")
        }
        guard case .object(let members) = root,
            members.first(where: { $0.key == "format" })?.value == .string(formatName)
        else { throw FormatError("not a server history (no \"format\": \"\(formatName)\")") }
        guard case .number(let versionText)? = members.first(where: { $0.key == "version" })?.value,
            let fileVersion = Int(versionText), fileVersion >= 1
        else { throw FormatError("its \"version\" is missing or not a positive integer") }
        guard fileVersion <= version else {
            throw FormatError("version \(fileVersion) is newer than this build reads (\(version))")
        }
        guard case .array(let items)? = members.first(where: { $0.key == "snapshots" })?.value else {
            throw FormatError("\"snapshots\" is missing or not an array")
        }
        var entries: [Entry] = []
        for (index, item) in items.enumerated() {
            let fail = { (problem: String) in FormatError("snapshot \(index + 1): \(problem)") }
            guard case .object(let fields) = item else { throw fail("not an object") }
            func field(_ name: String) -> JSONValue? { fields.first { $0.key == name }?.value }
            guard case .string(let atText)? = field("at"), let at = Timestamp.parse(atText) else {
                throw fail("\"at\" is missing or not an ISO 8601 time")
            }
            guard case .string(let source)? = field("source") else { throw fail("\"source\" is missing") }
            switch (field("values"), field("valuesOmitted")) {
            case (.object(let pairs)?, nil):
                var values: [String: String] = [:]
                for (key, value) in pairs {
                    guard case .string(let string) = value else {
                        throw fail(
                            "the value of \"\(VisibleText.escaped(key))\" is \(value.typeDescription), not a string")
                    }
                    guard values.updateValue(string, forKey: key) == nil else {
                        throw fail("\"\(VisibleText.escaped(key))\" is there twice")
                    }
                }
                entries.append(Entry(at: at, source: source, values: values))
            case (nil, .number(let count)?):
                entries.append(Entry(at: at, source: source, values: nil, keyCount: Int(count) ?? 0))
            default:
                throw fail("needs either \"values\" (an object of strings) or \"valuesOmitted\" (a count)")
            }
        }
        return entries
    }
}
