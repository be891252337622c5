package import Foundation

/// The report's file format: see ``ProgramReport``.
extension ProgramReport {
    private struct Header: Decodable {
        var format: String?
        var version: Int?
    }

    private struct Document: Codable {
        var format: String
        var version: Int
        var program: String
        var pid: Int32
        var processStart: String?
        var store: String?
        var startedAt: String
        var writtenAt: String
        var endedAt: String?
        var recordsReads: Bool?
        var reads: [String: ReadEntry]?
        var unregistered: [UnregisteredEntry]?
        var rejectedOverrides: [RejectedEntry]?
    }

    private struct ReadEntry: Codable {
        var firstRead: String
        var currentValueFirstRead: String?
    }

    private struct UnregisteredEntry: Codable {
        var name: String
        var scopeType: String
        var keyType: String
        var firstRead: String
    }

    private struct RejectedEntry: Codable {
        var name: String
        var value: String
        var reason: String
    }

    /// The file's bytes: pretty-printed JSON with sorted keys, so two writes of the same report are identical.
    package func encoded() throws -> Data {
        let document = Document(
            format: Self.formatName,
            version: Self.version,
            program: programName,
            pid: processIdentifier,
            processStart: processStart,
            store: storePath,
            startedAt: Timestamp.format(startedAt),
            writtenAt: Timestamp.format(writtenAt),
            endedAt: endedAt.map(Timestamp.format),
            recordsReads: recordsReads,
            reads: Dictionary(
                uniqueKeysWithValues: reads.map {
                    (
                        $0.name,
                        ReadEntry(
                            firstRead: Timestamp.format($0.firstRead),
                            currentValueFirstRead: $0.currentValueFirstRead.map(Timestamp.format))
                    )
                }),
            unregistered: unregistered.map {
                UnregisteredEntry(
                    name: $0.name, scopeType: $0.scopeTypeName, keyType: $0.keyTypeName,
                    firstRead: Timestamp.format($0.firstRead))
            },
            rejectedOverrides: rejectedOverrides.map {
                RejectedEntry(name: $0.name, value: $0.value, reason: $0.reason)
            }
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(document)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// Reads a report file's bytes; throws a ``ProgramReportFormatError`` that says what is wrong.
    init(decoding data: Data) throws(ProgramReportFormatError) {
        let decoder = JSONDecoder()
        let header: Header
        do {
            header = try decoder.decode(Header.self, from: data)
        } catch {
            throw ProgramReportFormatError("not a JSON object")
        }
        guard header.format == Self.formatName else {
            throw ProgramReportFormatError(
                header.format.map { "\"format\" is \"\(VisibleText.escaped($0))\", not \"\(Self.formatName)\"" }
                    ?? "missing \"format\": \"\(Self.formatName)\"; this is not a program report")
        }
        guard let version = header.version else { throw ProgramReportFormatError("missing \"version\"") }
        guard version == Self.version else {
            throw ProgramReportFormatError(
                "version \(version) of the format; this build reads version \(Self.version)")
        }
        let document: Document
        do {
            document = try decoder.decode(Document.self, from: data)
        } catch let error as DecodingError {
            throw ProgramReportFormatError(Self.describe(error))
        } catch {
            throw ProgramReportFormatError("\(error)")
        }
        func date(_ text: String, _ field: String) throws(ProgramReportFormatError) -> Date {
            guard let date = Timestamp.parse(text) else {
                throw ProgramReportFormatError(
                    "\"\(field)\" is not a UTC timestamp like 2026-11-29T14:05:00.123Z: \"\(VisibleText.escaped(text))\""
                )
            }
            return date
        }
        var reads: [ConfigurationReadCoverage.Read] = []
        for (name, entry) in document.reads ?? [:] {
            reads.append(
                .init(
                    name: name, firstRead: try date(entry.firstRead, "reads.\(name).firstRead"),
                    currentValueFirstRead: try entry.currentValueFirstRead.map {
                        (text) throws(ProgramReportFormatError) in
                        try date(text, "reads.\(name).currentValueFirstRead")
                    }))
        }
        var unregistered: [UnregisteredConfigurationKey] = []
        for entry in document.unregistered ?? [] {
            unregistered.append(
                .init(
                    name: entry.name, scopeTypeName: entry.scopeType, keyTypeName: entry.keyType,
                    firstRead: try date(entry.firstRead, "unregistered.firstRead")))
        }
        self.init(
            programName: document.program,
            processIdentifier: document.pid,
            processStart: document.processStart,
            storePath: document.store,
            startedAt: try date(document.startedAt, "startedAt"),
            writtenAt: try date(document.writtenAt, "writtenAt"),
            endedAt: try document.endedAt.map { (text) throws(ProgramReportFormatError) in try date(text, "endedAt") },
            recordsReads: document.recordsReads ?? true,
            reads: reads.sorted { $0.name < $1.name },
            unregistered: unregistered.sorted { $0.name < $1.name },
            rejectedOverrides: (document.rejectedOverrides ?? []).map {
                ConfigurationRejectedOverride(name: $0.name, value: $0.value, reason: $0.reason)
            }.sorted { ($0.name, $0.value) < ($1.name, $1.value) }
        )
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context, _ last: (any CodingKey)? = nil) -> String {
            let keys = context.codingPath + (last.map { [$0] } ?? [])
            return VisibleText.escaped(
                keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "."))
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing \"\(path(context, key))\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\"\(path(context))\" has the wrong type"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON" : "\"\(path(context))\" is not valid"
        @unknown default: return "not a valid program report"
        }
    }
}
