package import Foundation

/// Fast, exact conversion between `Date` and UTC ISO 8601 text with milliseconds (`2026-11-29T14:05:00.123Z`).
///
/// The override store writes one timestamp per entry on every save; Foundation's formatters cost microseconds each,
/// which at 10,000 entries would dominate a save. The core only writes timestamps (in messages); reading them is for
/// the layers that read files (`Timestamp.parse`, in ServiceConfigurationFiles).
package enum Timestamp {
    /// `date` without its sub-millisecond part, as ``format(_:)`` writes it.
    package static func truncatedToMilliseconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }

    /// `date` as `YYYY-MM-DDTHH:MM:SS.mmmZ` (years 0 to 9999).
    package static func format(_ date: Date) -> String {
        let totalMilliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let (days, dayMilliseconds) = totalMilliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (epochDays, milliseconds) =
            dayMilliseconds < 0 ? (days - 1, dayMilliseconds + 86_400_000) : (days, dayMilliseconds)
        let (year, month, day) = civil(fromDays: epochDays)
        var bytes = [UInt8](repeating: 0, count: 24)
        func put(_ value: Int64, at offset: Int, width: Int) {
            var rest = value
            for position in stride(from: offset + width - 1, through: offset, by: -1) {
                bytes[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
        }
        put(year, at: 0, width: 4)
        put(month, at: 5, width: 2)
        put(day, at: 8, width: 2)
        put(milliseconds / 3_600_000, at: 11, width: 2)
        put(milliseconds / 60_000 % 60, at: 14, width: 2)
        put(milliseconds / 1000 % 60, at: 17, width: 2)
        put(milliseconds % 1000, at: 20, width: 3)
        for (offset, character) in [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":"), (19, "."), (23, "Z")] {
            bytes[offset] = Character(character).asciiValue!
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (the inverse of `Timestamp.days(fromCivil:_:_:)`, which parsing uses).
    static func civil(fromDays count: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = count + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
