import Foundation
import ServiceConfiguration
import ServiceConfigurationCore
import ServiceConfigurationFileStore
import ServiceConfigurationFiles
import ServiceConfigurationSync

// Issue 22: should the machine-written server snapshot and journal records be decoded with Codable instead of
// their hand-written decoders on the strict parser? This mode times both on realistic files of the sizes the
// formats meet, measures their peak memory in fresh processes, and feeds both the same hostile inputs. The
// Codable decoders live here, not in the library: they are the evidence for keeping the hand-written ones.

// MARK: Inputs

/// A server snapshot of `count` values, written by the library's own encoder: key names as a large catalog has
/// them, values the mix a server sends (flags, numbers, URLs, variant names, small JSON payloads).
func benchmarkSnapshotBytes(values count: Int) -> [UInt8] {
    var values: [String: String] = [:]
    values.reserveCapacity(count)
    for index in 0..<count {
        let key = "function.synthetic.module\(index % 1000).key\(index)"
        switch index % 8 {
        case 0, 1, 2: values[key] = index.isMultiple(of: 2) ? "Y" : "N"
        case 3, 4: values[key] = String(index * 37 % 100_000)
        case 5: values[key] = "https://cdn.example.com/assets/\(index)/icon@2x.png"
        case 6: values[key] = "variant-\(index % 7)"
        default:
            values[key] =
                #"[{"pattern":"uploads/category-\#(index % 12)/**/*.jpg","maxBytes":1048576,"wifiOnly":true}]"#
        }
    }
    let at = Date(timeIntervalSince1970: 1_764_425_100)
    var previous: [String: String?] = [:]
    for index in 0..<min(count, 20) {
        previous["function.synthetic.module\(index % 1000).key\(index)"] = index.isMultiple(of: 3) ? nil : "N"
    }
    let status = ServerSyncStatus(
        source: "https://config.example.com/values.json", state: .fresh(at: at), lastSync: at,
        validators: ServerValuesValidators(etag: "\"v-\(count)\"", lastModified: "Sat, 29 Nov 2025 14:05:00 GMT"),
        lastChange: ServerValuesChange(at: at, previousValues: previous), keyCount: count)
    let snapshot = ServerValuesSnapshot(
        status: status, values: values,
        writer: ServerSnapshotWriter(programName: "bench-app", processIdentifier: 4411, processStart: "1764425000.25"))
    return snapshot.encoded(values: ServerValuesSnapshot.encodeValues(values))
}

/// A journal of `count` records, each line written by the library's own encoder: mostly one-key sets from the menu
/// and the command line with the entry before and after (notes and expiry on some), every twentieth a reset.
func benchmarkJournalBytes(records count: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    var previous: [String: OverrideEntry] = [:]
    let start = Date(timeIntervalSince1970: 1_764_425_100)
    for index in 0..<count {
        let key = "function.synthetic.module\(index % 50).key\(index % 400)"
        let time = start + Double(index) * 1.5
        let action: OverrideChangeReason.Action = index % 20 == 19 ? .reset : .set
        let entry = OverrideEntry(
            value: index.isMultiple(of: 3) ? "Y" : String(index * 7),
            setAt: time, serverValueWhenSet: "N", note: index.isMultiple(of: 10) ? "QA-\(index): new uploader" : nil,
            expiry: index.isMultiple(of: 5) ? OverrideExpiry(expiresAt: time + 86_400) : .never)
        let new = action == .reset ? nil : entry
        let cli = index.isMultiple(of: 4)
        let record = OverrideJournalRecord(
            id: "\(Int64(time.timeIntervalSince1970 * 1000))-4411-\(String(index % 65_536, radix: 16))", time: time,
            origin: OverrideChangeOrigin(kind: cli ? .cli : .menu, name: cli ? "config-menu" : "bench-app", pid: 4411),
            reason: OverrideChangeReason(action), changes: [.init(key: key, old: previous[key], new: new)])
        previous[key] = new
        bytes += record.encodedLine()
    }
    return bytes
}

/// Decodes every line of a journal file as `OverrideJournal.readRecords` does: one record per line, a line that
/// cannot be read counted.
func decodeJournal(
    _ bytes: [UInt8],
    _ decode: (UnsafeBufferPointer<UInt8>) throws(OverrideJournalRecord.LineError) -> OverrideJournalRecord
) -> (records: [OverrideJournalRecord], unreadable: Int) {
    var records: [OverrideJournalRecord] = []
    var unreadable = 0
    bytes.withUnsafeBufferPointer { buffer in
        var start = 0
        while start < buffer.count {
            let end = buffer[start...].firstIndex(of: 0x0A) ?? buffer.count
            if end > start {
                do throws(OverrideJournalRecord.LineError) {
                    records.append(try decode(UnsafeBufferPointer(rebasing: buffer[start..<end])))
                } catch {
                    unreadable += 1
                }
            }
            start = end + 1
        }
    }
    return (records, unreadable)
}

// MARK: The Codable decoders

/// A coding key for any member name.
struct AnyCodingKey: CodingKey, ExpressibleByStringLiteral {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
    init(stringLiteral value: String) { stringValue = value }
}

/// Any JSON value, decoded with `JSONDecoder` into the library's `JSONValue`: how a Codable journal would keep an
/// entry's fields it does not know (it cannot have their text as found, only a re-encoding of what it decoded).
struct AnyJSON: Decodable {
    var value: JSONValue
    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(AnyJSON.self).value) }
            value = .array(elements)
        } else if let object = try? decoder.container(keyedBy: AnyCodingKey.self) {
            value = .object(
                try object.allKeys.map { ($0.stringValue, try object.decode(AnyJSON.self, forKey: $0).value) })
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                value = .null
            } else if let flag = try? single.decode(Bool.self) {
                value = .bool(flag)
            } else if let text = try? single.decode(String.self) {
                value = .string(text)
            } else if let whole = try? single.decode(Int64.self) {
                value = .number(String(whole))
            } else {
                value = .number(String(try single.decode(Double.self)))
            }
        }
    }
}

/// The JSON type `JSONDecoder` says it found, in the hand decoder's words ("a number", "an object", ...).
func foundType(_ context: DecodingError.Context) -> String {
    let text = context.debugDescription
    guard let range = text.range(of: "but found "),
        let end = text.range(of: " instead", range: range.upperBound..<text.endIndex)
    else { return "something else" }
    let found = String(text[range.upperBound..<end.lowerBound])
    switch found {
    case "number", "a number": return "a number"
    case "bool", "a bool", "a boolean", "true", "false": return "a boolean"
    case "string", "a string": return "a string"
    case "array", "an array": return "an array"
    case "dictionary", "a dictionary", "an object", "object": return "an object"
    case "null": return "null"
    default: return found
    }
}

/// The server snapshot decoded with `JSONDecoder` into `Decodable` types, checked in the hand decoder's order and
/// with its messages where `DecodingError` carries what they need.
enum CodableServerSnapshot {
    struct LastError: Decodable {
        var at: String?
        var kind: String?
        var reason: String?
        var statusCode: Int?
        init(from decoder: any Decoder) throws {
            // Tolerated field by field, as the hand decoder does: a field of the wrong type is left out.
            let fields = try decoder.container(keyedBy: AnyCodingKey.self)
            at = try? fields.decodeIfPresent(String.self, forKey: "at")
            kind = try? fields.decodeIfPresent(String.self, forKey: "kind")
            reason = try? fields.decodeIfPresent(String.self, forKey: "reason")
            statusCode = try? fields.decodeIfPresent(Int.self, forKey: "statusCode")
        }
    }

    struct LastChange: Decodable {
        var at: String?
        var previousValues: [String: String?]
        init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: AnyCodingKey.self)
            at = try? fields.decodeIfPresent(String.self, forKey: "at")
            // Previous values must be strings or null when they are an object, as in the hand decoder.
            if (try? fields.nestedContainer(keyedBy: AnyCodingKey.self, forKey: "previousValues")) != nil {
                previousValues = try fields.decode([String: String?].self, forKey: "previousValues")
            } else {
                previousValues = [:]
            }
        }
    }

    struct Writer: Decodable {
        var program: String
        var pid: Int32
        var processStart: String?
    }

    struct File: Decodable {
        var format: String?
        var version: Int?
        var source: String?
        var status: String?
        var lastSync: String?
        var etag: String?
        var lastModified: String?
        var lastError: LastError?
        var lastChange: LastChange?
        var writer: Writer?
        var values: [String: String]?

        init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: AnyCodingKey.self)
            format = try? fields.decodeIfPresent(String.self, forKey: "format")
            guard format == ServerValuesSnapshot.formatName else {
                throw ServerValuesSnapshot.FormatError(
                    "\"format\" is not \"\(ServerValuesSnapshot.formatName)\"; this is not a server snapshot")
            }
            version = try? fields.decodeIfPresent(Int.self, forKey: "version")
            source = try fields.decodeIfPresent(String.self, forKey: "source")
            status = try fields.decodeIfPresent(String.self, forKey: "status")
            lastSync = try fields.decodeIfPresent(String.self, forKey: "lastSync")
            etag = try fields.decodeIfPresent(String.self, forKey: "etag")
            lastModified = try fields.decodeIfPresent(String.self, forKey: "lastModified")
            lastError = try? fields.decodeIfPresent(LastError.self, forKey: "lastError")
            if (try? fields.nestedContainer(keyedBy: AnyCodingKey.self, forKey: "lastChange")) != nil {
                lastChange = try fields.decode(LastChange.self, forKey: "lastChange")
            }
            writer = try? fields.decodeIfPresent(Writer.self, forKey: "writer")
            values = try fields.decodeIfPresent([String: String].self, forKey: "values")
        }
    }

    /// `ServerValuesSnapshot(parsing:)` with `JSONDecoder`: the same signature, the same checks after decoding.
    static func parse(_ bytes: [UInt8]) throws(ServerValuesSnapshot.FormatError) -> ServerValuesSnapshot {
        typealias FormatError = ServerValuesSnapshot.FormatError
        guard bytes.count <= ServerValuesSnapshot.maximumFileSize else {
            throw FormatError("the file is \(bytes.count >> 20) MiB; the limit is 128 MiB")
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: Data(bytes))
        } catch let error as FormatError {
            throw error
        } catch DecodingError.typeMismatch(_, let context) {
            let path = context.codingPath.map(\.stringValue)
            if path.count == 2, path[0] == "values" {
                throw FormatError(
                    "the value of \"\(path[1].prefix(80))\" must be a string, found \(foundType(context))")
            }
            throw FormatError("\"\(path.joined(separator: "."))\" must be a string, found \(foundType(context))")
        } catch DecodingError.valueNotFound(_, let context) {
            let path = context.codingPath.map(\.stringValue)
            if path.count == 2, path[0] == "values" {
                throw FormatError("the value of \"\(path[1].prefix(80))\" must be a string, found null")
            }
            throw FormatError("\"\(path.joined(separator: "."))\" must be a string, found null")
        } catch DecodingError.dataCorrupted(let context) {
            let underlying = context.underlyingError.map { "\($0)" } ?? context.debugDescription
            throw FormatError("not valid JSON: \(underlying)")
        } catch {
            throw FormatError("not valid JSON: \(error)")
        }
        guard let version = file.version else { throw FormatError("missing or invalid \"version\"") }
        guard version <= ServerValuesSnapshot.version else {
            throw FormatError(
                "written by a newer version of the format (version \(version); this build reads up to "
                    + "\(ServerValuesSnapshot.version))")
        }
        guard version >= 1 else { throw FormatError("unsupported format version \(version)") }
        func date(_ text: String?, _ name: String) throws(FormatError) -> Date? {
            guard let text else { return nil }
            guard let date = Timestamp.parse(text) else {
                throw FormatError("\"\(name)\" is not a UTC timestamp like 2026-11-29T14:05:00.000Z")
            }
            return date
        }
        guard let source = file.source else { throw FormatError("missing \"source\"") }
        guard !source.isEmpty else {
            throw FormatError("\"source\" is empty: the snapshot does not say where its values came from")
        }
        var status = ServerSyncStatus(source: source)
        status.lastSync = try date(file.lastSync, "lastSync")
        status.validators = ServerValuesValidators(etag: file.etag, lastModified: file.lastModified)
        if let lastError = file.lastError {
            status.lastErrorAt = try date(lastError.at, "lastError.at")
            status.lastError = ServerSyncError(
                kind: lastError.kind.flatMap(ServerSyncError.Kind.init(rawValue:)) ?? .unreachable,
                reason: lastError.reason ?? "unknown", statusCode: lastError.statusCode)
        }
        if let change = file.lastChange, let at = try date(change.at, "lastChange.at") {
            status.lastChange = ServerValuesChange(at: at, previousValues: change.previousValues)
        }
        var writer: ServerSnapshotWriter?
        if let found = file.writer, found.pid > 0 {
            writer = ServerSnapshotWriter(
                programName: found.program, processIdentifier: found.pid, processStart: found.processStart)
        }
        let values = file.values ?? [:]
        status.keyCount = values.count
        let reason = status.lastError?.reason ?? "the last sync failed"
        switch file.status {
        case "fresh": status.state = status.lastSync.map { .fresh(at: $0) } ?? .waiting
        case "cached": status.state = status.lastSync.map { .cached(since: $0) } ?? .waiting
        case "stale": status.state = status.lastSync.map { .stale(since: $0, reason: reason) } ?? .error(reason: reason)
        case "error": status.state = .error(reason: reason)
        default: status.state = status.lastSync.map { .fresh(at: $0) } ?? .waiting
        }
        return ServerValuesSnapshot(status: status, values: values, writer: writer)
    }
}

/// A journal line decoded with `JSONDecoder` into `Decodable` types.
enum CodableJournalRecord {
    /// Thrown from inside `init(from:)`: the line is of a newer version.
    struct NewerVersion: Error {}

    struct Origin: Decodable {
        var kind: OverrideChangeOrigin.Kind
        var name: String
        var pid: Int32?
        init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: AnyCodingKey.self)
            guard
                let kind = (try? fields.decode(String.self, forKey: "kind")).flatMap({
                    OverrideChangeOrigin.Kind(rawValue: $0)
                })
            else {
                throw DecodingError.dataCorruptedError(
                    forKey: "kind", in: fields, debugDescription: "\"origin\" needs a known kind")
            }
            self.kind = kind
            name = (try? fields.decodeIfPresent(String.self, forKey: "name")) ?? ""
            pid = try? fields.decodeIfPresent(Int32.self, forKey: "pid")
        }
    }

    /// An entry as the store writes it; fields it does not know are kept re-encoded (not as found).
    struct Entry: Decodable {
        var entry: OverrideEntry
        static let known: Set<String> = [
            "value", "setAt", "note", "serverValueWhenSet", "expiresAt", "untilServerChanges", "untilVersion",
        ]
        init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: AnyCodingKey.self)
            let value = try fields.decode(String.self, forKey: "value")
            var preserved: [String: String] = [:]
            for key in fields.allKeys where !Self.known.contains(key.stringValue) {
                var json: [UInt8] = []
                JSONWriter.append(try fields.decode(AnyJSON.self, forKey: key).value, to: &json)
                preserved[key.stringValue] = String(decoding: json, as: UTF8.self)
            }
            let expiry = OverrideExpiry(
                expiresAt: (try? fields.decodeIfPresent(String.self, forKey: "expiresAt")).flatMap(
                    Timestamp.parse),
                untilServerChanges: (try? fields.decodeIfPresent(Bool.self, forKey: "untilServerChanges")) == true,
                untilVersion: (try? fields.decodeIfPresent(String.self, forKey: "untilVersion")).flatMap(
                    ProgramVersion.init))
            entry = OverrideEntry(
                value: value,
                setAt: (try? fields.decodeIfPresent(String.self, forKey: "setAt")).flatMap(
                    Timestamp.parse),
                serverValueWhenSet: try? fields.decodeIfPresent(String.self, forKey: "serverValueWhenSet"),
                note: try? fields.decodeIfPresent(String.self, forKey: "note"), expiry: expiry,
                preservedFields: preserved)
        }
    }

    struct Change: Decodable {
        var key: String
        var old: Entry?
        var new: Entry?
    }

    struct Line: Decodable {
        var record: OverrideJournalRecord
        init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: AnyCodingKey.self)
            let version = try fields.decode(Int.self, forKey: "v")
            if version > OverrideJournalRecord.lineVersion { throw NewerVersion() }
            let time = try fields.decode(String.self, forKey: "time")
            guard let date = Timestamp.parse(time) else {
                throw DecodingError.dataCorruptedError(
                    forKey: "time", in: fields, debugDescription: "not a UTC timestamp")
            }
            let action = try fields.decode(String.self, forKey: "action")
            let changes = try fields.decode([Change].self, forKey: "changes")
            let origin = try fields.decode(Origin.self, forKey: "origin")
            record = OverrideJournalRecord(
                id: try fields.decode(String.self, forKey: "id"), time: date,
                origin: OverrideChangeOrigin(kind: origin.kind, name: origin.name, pid: origin.pid),
                reason: OverrideChangeReason(
                    OverrideChangeReason.Action(rawValue: action) ?? .change,
                    detail: try fields.decodeIfPresent(String.self, forKey: "detail"),
                    undoes: try fields.decodeIfPresent(String.self, forKey: "undoes")),
                changes: changes.map { .init(key: $0.key, old: $0.old?.entry, new: $0.new?.entry) },
                omittedKeys: try fields.decodeIfPresent(Int.self, forKey: "omittedKeys") ?? 0,
                entriesOmitted: try fields.decodeIfPresent(Bool.self, forKey: "entriesOmitted") ?? false)
        }
    }

    /// `OverrideJournalRecord(line:)` with `JSONDecoder`: the same signature and error type.
    static func decode(
        _ line: UnsafeBufferPointer<UInt8>, with decoder: JSONDecoder
    ) throws(OverrideJournalRecord.LineError) -> OverrideJournalRecord {
        do {
            return try decoder.decode(Line.self, from: Data(buffer: line)).record
        } catch is NewerVersion {
            throw .newerVersion
        } catch {
            throw .malformed("\(error)")
        }
    }
}

// MARK: The benchmark

/// The two decoders of each format, timed alternately on the same bytes; the memory of each in a fresh process; and
/// what each makes of hostile inputs.
func codableBenchmarks() throws {
    print("")
    print("Hand-written decoders against Codable (release build; load average \(loadAverage()))")
    print("")
    print("| input | hand-written | Codable (`JSONDecoder`) | Codable / hand |")
    print("|---|---:|---:|---:|")
    let decoder = JSONDecoder()
    for count in [1_000, 100_000] {
        let bytes = benchmarkSnapshotBytes(values: count)
        let hand = try ServerValuesSnapshot(parsing: bytes)
        let codable = try CodableServerSnapshot.parse(bytes)
        precondition(hand == codable && hand.values.count == count, "the two decoders disagree")
        let trials = count > 10_000 ? 7 : 25
        let timing = alternate(trials: trials) {
            blackHole(try? ServerValuesSnapshot(parsing: bytes))
        } _: {
            blackHole(try? CodableServerSnapshot.parse(bytes))
        }
        printComparison("snapshot, \(grouped(count)) values (\(ByteCount.describe(bytes.count)))", timing)
    }
    // A history read decodes two files (the journal and the rotated one), each rotated once it passes 1 MiB: about
    // 2 MiB of lines at most. 10,000 records of this mix are more than that; the third size is what fits in 2 MiB.
    let full = benchmarkJournalBytes(records: 10_000)
    var cut = 2 * OverrideJournal.rotationSize
    while full[cut - 1] != 0x0A { cut -= 1 }
    let fullHistory = full[..<cut].count { $0 == 0x0A }
    for count in [1_000, 10_000, fullHistory] {
        let bytes = benchmarkJournalBytes(records: count)
        let hand = decodeJournal(bytes) { line throws(OverrideJournalRecord.LineError) in
            try OverrideJournalRecord(line: line)
        }
        let codable = decodeJournal(bytes) { line throws(OverrideJournalRecord.LineError) in
            try CodableJournalRecord.decode(line, with: decoder)
        }
        precondition(hand.records.count == count && hand.unreadable == 0, "the hand decoder skipped lines")
        precondition(hand.records == codable.records, "the two decoders disagree")
        let timing = alternate(trials: count > 1_000 ? 9 : 25) {
            blackHole(
                decodeJournal(bytes) { line throws(OverrideJournalRecord.LineError) in
                    try OverrideJournalRecord(line: line)
                })
        } _: {
            blackHole(
                decodeJournal(bytes) { line throws(OverrideJournalRecord.LineError) in
                    try CodableJournalRecord.decode(line, with: decoder)
                })
        }
        let name =
            count == fullHistory
            ? "journal, a full history: \(grouped(count)) records" : "journal, \(grouped(count)) records"
        printComparison("\(name) (\(ByteCount.describe(bytes.count)))", timing)
    }

    print("")
    print("| peak memory (fresh process, input already in memory) | hand-written | Codable |")
    print("|---|---:|---:|")
    for (format, count) in [("snapshot", 100_000), ("journal", 10_000)] {
        let growth = try ["hand", "codable"].map { try codableMemory(format: format, decoder: $0, count: count) }
        print(
            String(
                format: "| %@, %@ | +%.1f MiB | +%.1f MiB |", format, grouped(count), growth[0], growth[1]))
    }

    print("")
    print("Hostile inputs: what each decoder does (\"accepted\" = decoded without complaint)")
    print("")
    print("| input | hand-written | Codable |")
    print("|---|---|---|")
    for (name, bytes) in hostileSnapshots() {
        let hand = outcome { () throws(ServerValuesSnapshot.FormatError) in
            describe(try ServerValuesSnapshot(parsing: bytes))
        }
        let codable = outcome { () throws(ServerValuesSnapshot.FormatError) in
            describe(try CodableServerSnapshot.parse(bytes))
        }
        print("| snapshot: \(name) | \(hand) | \(codable) |")
    }
    for (name, line) in hostileJournalLines() {
        let hand = outcome { () throws(OverrideJournalRecord.LineError) in
            describe(
                try line.withUnsafeBufferPointer { buffer throws(OverrideJournalRecord.LineError) in
                    try OverrideJournalRecord(line: buffer)
                })
        }
        let codable = outcome { () throws(OverrideJournalRecord.LineError) in
            describe(
                try line.withUnsafeBufferPointer { buffer throws(OverrideJournalRecord.LineError) in
                    try CodableJournalRecord.decode(buffer, with: decoder)
                })
        }
        print("| journal: \(name) | \(hand) | \(codable) |")
    }
    print("Load average after: \(loadAverage())")
}

/// Milliseconds per call of `first` and `second`, timed in alternating trials; the medians and the median of the
/// per-trial ratios (second / first).
func alternate(trials: Int, _ first: () -> Void, _ second: () -> Void) -> (first: Double, second: Double, ratio: Double)
{
    first()
    second()
    var firsts: [Double] = []
    var seconds: [Double] = []
    var ratios: [Double] = []
    for _ in 0..<trials {
        var start = nanoseconds()
        first()
        let one = Double(nanoseconds() - start) / 1e6
        start = nanoseconds()
        second()
        let two = Double(nanoseconds() - start) / 1e6
        firsts.append(one)
        seconds.append(two)
        ratios.append(two / one)
    }
    return (median(firsts), median(seconds), median(ratios))
}

func printComparison(_ name: String, _ timing: (first: Double, second: Double, ratio: Double)) {
    print(String(format: "| %@ | %.2f ms | %.2f ms | %.2fx |", name, timing.first, timing.second, timing.ratio))
}

/// The peak resident memory that one decode of a `count`-sized input adds, in a fresh process.
func codableMemory(format: String, decoder: String, count: Int) throws -> Double {
    try childMemory(["--codable-memory", format, decoder, String(count)])
}

/// Runs this benchmark again with `arguments` (a memory child, which prints its resident set before and its peak
/// during the measured work, in MiB) and returns what the work added.
func childMemory(_ arguments: [String]) throws -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let numbers = text.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    guard numbers.count == 2 else { throw BenchmarkError("the memory child said: \(text)") }
    return numbers[1] - numbers[0]
}

/// The child process of the memory comparison: makes the input, resets the peak, decodes once, prints the resident
/// set before and the peak during the decode (MiB).
func codableMemoryChild(_ arguments: [String]) throws {
    let count = Int(arguments[2])!
    let isSnapshot = arguments[0] == "snapshot"
    let bytes = isSnapshot ? benchmarkSnapshotBytes(values: count) : benchmarkJournalBytes(records: count)
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    let before = procStatusMiB("VmRSS")
    switch (isSnapshot, arguments[1] == "codable") {
    case (true, false): blackHole(try ServerValuesSnapshot(parsing: bytes))
    case (true, true): blackHole(try CodableServerSnapshot.parse(bytes))
    case (false, false):
        blackHole(decodeJournal(bytes) { line throws(OverrideJournalRecord.LineError) in try .init(line: line) })
    case (false, true):
        let decoder = JSONDecoder()
        blackHole(
            decodeJournal(bytes) { line throws(OverrideJournalRecord.LineError) in
                try CodableJournalRecord.decode(line, with: decoder)
            })
    }
    print(before, procStatusMiB("VmHWM"))
}

/// "accepted (…)" or "refused: the message", for one table cell.
func outcome<E: Error>(_ body: () throws(E) -> String) -> String {
    do {
        return "accepted (\(try body()))"
    } catch {
        var text = "\(error)".replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
        if text.count > 160 { text = String(text.prefix(157)) + "..." }
        return "refused: \(text)"
    }
}

func describe(_ snapshot: ServerValuesSnapshot) -> String {
    let values = snapshot.values.sorted { $0.key < $1.key }.map { "\($0.key)=\(VisibleText.escaped($0.value))" }
    return "values \(values.joined(separator: ", ")); source \(snapshot.status.source)"
}

func describe(_ record: OverrideJournalRecord) -> String {
    let change = record.changes.first
    let preserved =
        change?.new?.preservedFields.sorted { $0.key < $1.key }.map { " kept \($0.key)=\($0.value)" }
        .joined() ?? ""
    return "id \(record.id), pid \(record.origin.pid.map(String.init) ?? "none"), "
        + "new \(change?.new.map { VisibleText.escaped($0.value) } ?? "none")\(preserved)"
}

/// Snapshots a person or another program could leave behind; each differs from a good one in one way.
func hostileSnapshots() -> [(String, [UInt8])] {
    let head =
        #"{"format": "service-configuration-server-snapshot", "version": 1, "source": "https://s/v.json", "#
        + #""lastSync": "2026-01-01T00:00:00.000Z", "#
    func snapshot(_ rest: String) -> [UInt8] { Array((head + rest).utf8) }
    return [
        ("unknown field", snapshot(#""later": {"x": 1}, "values": {"a": "1"}}"#)),
        ("duplicate key in values", snapshot(#""values": {"a": "1", "a": "2"}}"#)),
        ("duplicate top-level \"source\"", snapshot(#""source": "https://other/v.json", "values": {"a": "1"}}"#)),
        ("a number value", snapshot(#""values": {"a": 1}}"#)),
        ("a null value", snapshot(#""values": {"a": null}}"#)),
        ("invalid UTF-8 in a value", snapshot(#""values": {"a": ""#) + [0xFF, 0xFE] + Array(#""}}"#.utf8)),
        ("a lone surrogate escape", snapshot(#""values": {"a": "\ud800"}}"#)),
        ("huge version number", Array(#"{"format": "service-configuration-server-snapshot", "version": 1e400}"#.utf8)),
        ("content after the object", snapshot(#""values": {"a": "1"}} {}"#)),
        ("a trailing comma", snapshot(#""values": {"a": "1",}}"#)),
        ("\"values\" not an object", snapshot(#""values": ["a"]}"#)),
        (
            "\"lastSync\" a number",
            Array(
                (#"{"format": "service-configuration-server-snapshot", "version": 1, "#
                    + #""source": "https://s/v.json", "lastSync": 5, "values": {}}"#).utf8)
        ),
    ]
}

/// Journal lines that differ from a good one in one way.
func hostileJournalLines() -> [(String, [UInt8])] {
    let head = #"{"v": 1, "id": "1-2-3", "time": "2026-01-01T00:00:00.000Z", "#
    func line(_ new: String, origin: String = #"{"kind": "cli", "name": "config-menu", "pid": 4411}"#) -> [UInt8] {
        let text =
            head + #""origin": \#(origin), "action": "set", "changes": [{"key": "k", "old": null, "new": \#(new)}]}"#
        // "@@" stands for two bytes that are not UTF-8.
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            if byte == UInt8(ascii: "@") { bytes.append(bytes.last == 0xC3 ? 0x28 : 0xC3) } else { bytes.append(byte) }
        }
        return bytes
    }
    return [
        ("good", line(#"{"value": "Y"}"#)),
        ("unknown field in an entry", line(#"{"later": {"b": 1.50}, "value": "Y"}"#)),
        ("duplicate \"value\" in an entry", line(#"{"value": "Y", "value": "N"}"#)),
        (
            "duplicate \"id\"",
            Array(
                (#"{"v": 1, "id": "1-2-3", "id": "4-5-6", "time": "2026-01-01T00:00:00.000Z", "#
                    + #""origin": {"kind": "cli", "name": "x"}, "action": "set", "changes": []}"#).utf8)
        ),
        ("a number value", line(#"{"value": 1}"#)),
        ("invalid UTF-8 in a value", line(#"{"value": "@@"}"#)),
        ("pid past Int32", line(#"{"value": "Y"}"#, origin: #"{"kind": "cli", "name": "x", "pid": 99999999999}"#)),
        ("\"v\": 2 (a newer build)", Array(#"{"v": 2, "whatever": true}"#.utf8)),
        ("\"v\": 1e400", Array(#"{"v": 1e400}"#.utf8)),
    ]
}

/// `100000` as `100,000`.
func grouped(_ number: Int) -> String {
    var text = String(number)
    var index = text.count - 3
    while index > 0 {
        text.insert(",", at: text.index(text.startIndex, offsetBy: index))
        index -= 3
    }
    return text
}
