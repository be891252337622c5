import Foundation
import ServiceConfiguration
import ServiceConfigurationCore
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

/// A save writes each entry straight into the file's buffer; these check it writes what the field-sorting writer
/// (the one entries with preserved fields still use) writes, and that times are written as Foundation reads them.
@Suite("Store encoding: the direct entry writer and the time writer against their references")
struct StoreEncodingTests {
    static let texts = ["", "Y", "é", "a\"b\\c", "\u{1}\u{1F}\u{7F}", "line\nbreak", "€ 20", "\u{1F600}", "{\"a\": 1}"]

    static func randomText(_ random: inout SeededGenerator) -> String {
        if Bool.random(using: &random) { return texts.randomElement(using: &random)! }
        let scalars = (0..<Int.random(in: 0...12, using: &random)).map { _ in
            Unicode.Scalar(UInt8.random(in: 0...0x7F, using: &random))
        }
        return String(String.UnicodeScalarView(scalars))
    }

    /// Whole milliseconds from 1600 to 9999, as a save truncates them.
    static func randomMilliseconds(_ random: inout SeededGenerator) -> Int64 {
        Int64.random(in: -11_676_096_000_000...253_402_300_799_999, using: &random)
    }

    static func randomDate(_ random: inout SeededGenerator) -> Date {
        Date(timeIntervalSince1970: Double(randomMilliseconds(&random)) / 1000)
    }

    @Test("seeded fuzz: an entry without preserved fields is written as the sorting writer writes it, and read back")
    func directWriterMatches() {
        var random = SeededGenerator(seed: 0x656E_636F_6465)
        for round in 0..<fuzzIterations(default: 3000) {
            var expiry = OverrideExpiry.never
            if Bool.random(using: &random) { expiry.expiresAt = Self.randomDate(&random) }
            expiry.untilServerChanges = Bool.random(using: &random)
            if Bool.random(using: &random) { expiry.untilVersion = ProgramVersion("\(round % 40).\(round % 7)") }
            let entry = OverrideEntry(
                value: Self.randomText(&random),
                setAt: Bool.random(using: &random) ? Self.randomDate(&random) : nil,
                serverValueWhenSet: Bool.random(using: &random) ? Self.randomText(&random) : nil,
                note: Bool.random(using: &random) ? Self.randomText(&random) : nil,
                expiry: expiry)
            var direct: [UInt8] = []
            OverrideDocument.appendEntry(entry, to: &direct)
            var sorted: [UInt8] = []
            OverrideDocument.appendSortingFields(entry, to: &sorted)
            #expect(direct == sorted, "round \(round): \(String(decoding: direct, as: UTF8.self))")
            // Read back, it is the same entry (times to the millisecond), so it writes the same bytes again.
            guard case .usable(let read, let problems) = OverrideDocument.readEntry(direct, key: "k") else {
                Issue.record("round \(round): \(String(decoding: direct, as: UTF8.self)) is quarantined when read")
                continue
            }
            #expect(problems.isEmpty)
            #expect(
                read.value == entry.value && read.note == entry.note
                    && read.expiry.untilVersion == entry.expiry.untilVersion)
            var again: [UInt8] = []
            OverrideDocument.appendEntry(read, to: &again)
            #expect(again == direct, "round \(round): \(String(decoding: again, as: UTF8.self))")
        }
    }

    @Test("seeded fuzz: times are written as UTC ISO 8601 with milliseconds, as Foundation's calendar reads them")
    func timesMatchFoundation() {
        var random = SeededGenerator(seed: 0x7469_6D65)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for _ in 0..<fuzzIterations(default: 3000) {
            let milliseconds = Self.randomMilliseconds(&random)
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            // The reference reads the calendar at the whole second (exact in a Double) and takes the milliseconds
            // from the integer.
            let second = Date(timeIntervalSince1970: Double((milliseconds - Int64(Int(milliseconds) %% 1000)) / 1000))
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: second)
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.year!, parts.month!, parts.day!, parts.hour!,
                parts.minute!, parts.second!, Int(milliseconds) %% 1000)
            #expect(Timestamp.format(date) == expected)
            // Read back, the text is the same time exactly: written again, it is the same text.
            #expect(Timestamp.parse(expected) == date, "\(expected)")
            #expect(Timestamp.parse(expected).map(Timestamp.format) == expected)
        }
    }
}

infix operator %% : MultiplicationPrecedence

/// The remainder that is never negative (times before 1970 have negative millisecond counts).
private func %% (left: Int, right: Int) -> Int {
    ((left % right) + right) % right
}
