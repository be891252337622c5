package import Foundation
package import ServiceConfigurationCore
import ServiceConfigurationFiles

/// The reads log beside a program report: what the program read since the report was last written whole, appended a
/// line at a time, so a program that read 100,000 keys does not rewrite 14 MB for each new read, and a reader that
/// follows it reads only what was added.
///
/// `<report>.json.reads` (ignored by readers of the report alone, which then see it as of its last whole write),
/// JSON Lines, mode 0600:
///
/// ```json
/// {"format": "service-configuration-program-report-reads", "version": 1, "generation": 3}
/// {"writtenAt": "2026-11-29T14:05:04.000Z", "reads": {"function.album.like.enabled": {"firstRead": "…", "currentValueFirstRead": "…"}}}
/// ```
///
/// Each line after the header gives the new state of the reads it names, each written as in the report (with its
/// `values` and `valuesOmitted`; a read without `currentValueFirstRead`: the value changed since it was read) and the time it was written, which becomes the report's `writtenAt`. The
/// log continues the report whose `generation` its header names; any other is ignored (a report written whole
/// since, with the log not yet removed). A line without its newline is still being written and is not read yet.
package enum ProgramReportLog {
    static let formatName = "service-configuration-program-report-reads"
    static let version = 1

    /// The log of the report file at `report`.
    package static func url(of report: URL) -> URL {
        report.deletingLastPathComponent().appendingPathComponent(report.lastPathComponent + ".reads")
    }

    /// The header line of a log continuing generation `generation`.
    package static func header(generation: Int) -> [UInt8] {
        var line: [UInt8] = []
        JSONWriter.append(
            .object([
                ("format", .string(formatName)), ("version", .number(String(version))),
                ("generation", .number(String(generation))),
            ]), to: &line)
        line.append(0x0A)
        return line
    }

    /// One line: `reads`' new state, written at `writtenAt`.
    package static func line(writtenAt: Date, reads: [ConfigurationReadCoverage.Read]) -> [UInt8] {
        var line: [UInt8] = []
        line.append(contentsOf: Array(#"{"writtenAt": ""#.utf8))
        line.append(contentsOf: Array(Timestamp.format(writtenAt).utf8))
        line.append(contentsOf: Array(#"", "reads": "#.utf8))
        ProgramReport.appendReads(reads, to: &line, indent: 0)
        line.append(contentsOf: [UInt8(ascii: "}"), 0x0A])
        return line
    }

    /// The reads of `new` that are not in `old` as they are (both sorted by name): one walk, no hashing. What a
    /// publisher appends.
    package static func changedReads(
        from old: [ConfigurationReadCoverage.Read], to new: [ConfigurationReadCoverage.Read]
    ) -> [ConfigurationReadCoverage.Read] {
        var changed: [ConfigurationReadCoverage.Read] = []
        var index = 0
        for read in new {
            while index < old.count, old[index].name < read.name { index += 1 }
            if index < old.count, old[index] == read { continue }
            changed.append(read)
        }
        return changed
    }

    /// What one complete line says.
    struct Entry {
        var writtenAt: Date
        var reads: [ConfigurationReadCoverage.Read]
    }

    /// The generation a header line names; throws for a line that is not this format's header.
    static func generation(ofHeader line: UnsafeBufferPointer<UInt8>) throws(ProgramReportFormatError) -> Int {
        guard case .object(let members)? = try? StrictJSON.parse(Array(line)),
            members.contains(where: { $0.key == "format" && $0.value == .string(formatName) })
        else { throw ProgramReportFormatError("not a reads log") }
        guard case .number(let text)? = members.first(where: { $0.key == "version" })?.value, Int(text) == version
        else { throw ProgramReportFormatError("a reads log of another version") }
        guard case .number(let generation)? = members.first(where: { $0.key == "generation" })?.value,
            let value = Int(generation)
        else { throw ProgramReportFormatError("a reads log without its generation") }
        return value
    }

    /// Parses one line after the header.
    static func entry(_ line: UnsafeBufferPointer<UInt8>) throws(ProgramReportFormatError) -> Entry {
        var cursor = JSONCursor(line)
        var writtenAt: Date?
        var reads: [ConfigurationReadCoverage.Read] = []
        do {
            cursor.skipWhitespace()
            guard cursor.next == UInt8(ascii: "{") else { throw ProgramReportFormatError("not a JSON object") }
            try cursor.readObject { cursor, name in
                switch name {
                case "reads" where cursor.next == UInt8(ascii: "{"):
                    reads = try ProgramReport.parseReads(&cursor, field: "reads")
                case "writtenAt":
                    guard case .string(let text) = try cursor.parseValue(), let date = Timestamp.parse(text) else {
                        throw ProgramReportFormatError("\"writtenAt\" is not a UTC timestamp")
                    }
                    writtenAt = date
                default: _ = try cursor.skipValue()
                }
            }
        } catch let error as ProgramReportFormatError {
            throw error
        } catch {
            throw ProgramReportFormatError("not valid JSON: \(error)")
        }
        guard let writtenAt else { throw ProgramReportFormatError("missing \"writtenAt\"") }
        return Entry(writtenAt: writtenAt, reads: reads)
    }
}

extension ProgramReport {
    /// Applies a log entry: its reads replace those of the same names (new names are merged in, keeping the reads
    /// sorted by name), and its time becomes ``writtenAt``. `positions` maps the names of ``reads`` to their index,
    /// kept up to date here.
    mutating func apply(_ entry: ProgramReportLog.Entry, positions: inout [String: Int]) {
        if positions.isEmpty, !reads.isEmpty {
            positions = Dictionary(uniqueKeysWithValues: reads.enumerated().map { ($0.element.name, $0.offset) })
        }
        var added: [ConfigurationReadCoverage.Read] = []
        for read in entry.reads {
            if let index = positions[read.name] { reads[index] = read } else { added.append(read) }
        }
        if !added.isEmpty {
            added.sort { $0.name < $1.name }
            var merged: [ConfigurationReadCoverage.Read] = []
            merged.reserveCapacity(reads.count + added.count)
            var old = reads.makeIterator()
            var new = added.makeIterator()
            var nextOld = old.next()
            var nextNew = new.next()
            while let a = nextOld, let b = nextNew {
                if a.name < b.name {
                    merged.append(a)
                    nextOld = old.next()
                } else {
                    merged.append(b)
                    nextNew = new.next()
                }
            }
            while let a = nextOld {
                merged.append(a)
                nextOld = old.next()
            }
            while let b = nextNew {
                merged.append(b)
                nextNew = new.next()
            }
            reads = merged
            positions = Dictionary(uniqueKeysWithValues: reads.enumerated().map { ($0.element.name, $0.offset) })
        }
        writtenAt = max(writtenAt, entry.writtenAt)
    }
}
