package import Foundation
package import ServiceConfigurationCore

/// Reading the timestamps the files hold (the store, the journal, reports, the server snapshot); the core only
/// writes them.
extension Timestamp {
    /// Parses an ISO 8601 date and time with seconds, an optional fraction and a zone: `Z` or an offset
    /// (`2026-11-29T23:05:00+09:00`, `+0900`, `+09`); `nil` for anything else, including dates that do not exist
    /// (month 13, 30 February).
    package static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    /// ``parse(_:)`` on UTF-8 bytes.
    package static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count >= 20 else { return nil }
        func digit(_ index: Int) -> Int64? {
            let byte = bytes[index]
            return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int64(byte - UInt8(ascii: "0")) : nil
        }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                guard let digit = digit(index) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"), bytes[13] == UInt8(ascii: ":"),
            bytes[16] == UInt8(ascii: ":"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), day >= 1, day <= daysInMonth(year, month), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        // Whole milliseconds as an integer, and only what is finer as a fraction: a time written with milliseconds
        // reads as exactly the `Date` that `truncatedToMilliseconds` makes, so it is written back with the same text.
        var milliseconds: Int64 = 0
        var finer = 0.0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let first = index
            while index < bytes.count, let digit = digit(index) {
                if index - first < 3 {
                    milliseconds = milliseconds * 10 + digit
                } else {
                    finer += Double(digit) * scale
                    scale /= 10
                }
                index += 1
            }
            guard index > first else { return nil }
            for _ in min(3, index - first)..<3 { milliseconds *= 10 }
        }
        guard index < bytes.count else { return nil }
        var offsetSeconds: Int64 = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard bytes.count - index >= 2, let hours = number(index..<index + 2), hours < 24 else { return nil }
            index += 2
            var minutes: Int64 = 0
            if index < bytes.count {
                if bytes[index] == UInt8(ascii: ":") { index += 1 }
                guard bytes.count - index == 2, let value = number(index..<index + 2), value < 60 else { return nil }
                minutes = value
                index += 2
            }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        default:
            return nil
        }
        guard index == bytes.count else { return nil }
        let seconds = days(fromCivil: year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: (Double(seconds * 1000 + milliseconds) + finer) / 1000)
    }

    /// The number of days in `month` of `year` (proleptic Gregorian).
    package static func daysInMonth(_ year: Int64, _ month: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    package static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
