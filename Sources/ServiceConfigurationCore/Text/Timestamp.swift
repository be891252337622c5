package import Foundation

/// Fast, exact conversion between `Date` and UTC ISO 8601 text with milliseconds (`2026-11-29T14:05:00.123Z`).
///
/// The override store writes one timestamp per entry on every save; Foundation's formatters cost microseconds each,
/// which at 10,000 entries would dominate a save. The core only writes timestamps (in messages); reading them is for
/// the layers that read files (`Timestamp.parse`, in ServiceConfigurationFiles).
package enum Timestamp {
    /// `date` without its sub-millisecond part, as ``format(_:)`` writes it.
    package static func truncatedToMilliseconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: Double(wholeMilliseconds(date)) / 1000)
    }

    /// The milliseconds since 1970 of `date`, rounded down; a time a few rounding errors short of a whole
    /// millisecond counts as that millisecond. `Date` keeps its time since 2001, so the time read from `…27.838Z`
    /// comes back from `timeIntervalSince1970` a hair below 27.838 (which has no exact binary form anyway): rounded
    /// down, every save of a time read would write it a millisecond earlier.
    static func wholeMilliseconds(_ date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970
        var whole = (seconds * 1000).rounded(.down)
        let slack = 4 * max(seconds.magnitude, Date.timeIntervalBetween1970AndReferenceDate).ulp
        if Double(whole + 1) / 1000 - seconds <= slack { whole += 1 }
        return Int64(whole)
    }

    /// `date` as `YYYY-MM-DDTHH:MM:SS.mmmZ` (years 0 to 9999).
    package static func format(_ date: Date) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        append(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``format(_:)``'s 24 bytes to `bytes`, without making a string (the store's saves write one a line).
    package static func append(_ date: Date, to bytes: inout [UInt8]) {
        let totalMilliseconds = wholeMilliseconds(date)
        let (days, dayMilliseconds) = totalMilliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (epochDays, milliseconds) =
            dayMilliseconds < 0 ? (days - 1, dayMilliseconds + 86_400_000) : (days, dayMilliseconds)
        let (year, month, day) = civil(fromDays: epochDays)
        func put(_ value: Int64, width: Int, then separator: UInt8?) {
            var digits: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
            var rest = value
            withUnsafeMutableBytes(of: &digits) { digits in
                for position in stride(from: width - 1, through: 0, by: -1) {
                    digits[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                    rest /= 10
                }
                bytes.append(contentsOf: digits.prefix(width))
            }
            if let separator { bytes.append(separator) }
        }
        put(year, width: 4, then: UInt8(ascii: "-"))
        put(month, width: 2, then: UInt8(ascii: "-"))
        put(day, width: 2, then: UInt8(ascii: "T"))
        put(milliseconds / 3_600_000, width: 2, then: UInt8(ascii: ":"))
        put(milliseconds / 60_000 % 60, width: 2, then: UInt8(ascii: ":"))
        put(milliseconds / 1000 % 60, width: 2, then: UInt8(ascii: "."))
        put(milliseconds % 1000, width: 3, then: UInt8(ascii: "Z"))
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
