import Foundation

extension GPXRoute {
    /// The date of a GPX `<time>`: an `xsd:dateTime` such as `2024-05-01T08:30:00Z`.
    ///
    /// A year of four digits or more (no leading zero past four, from 0001), month, day,
    /// `T`, hours, minutes, seconds with a fraction of any length, then `Z`, an offset
    /// `+hh:mm` or `-hh:mm`, or nothing: a time without an offset is read as UTC. Also
    /// accepted, as ISO 8601 allows: the offsets `+hhmm` and `+hh`, second 60 (a leap
    /// second, read as the next minute's first) and `24:00:00` (the next day's start).
    /// Dates are in the proleptic Gregorian calendar, as ISO 8601 and XML Schema say.
    ///
    /// - Returns: `nil` when `text` is anything else.
    static func parseTime(_ text: String) -> Date? {
        var reader = DigitReader(bytes: Array(text.utf8))
        // Date: yyyy-mm-dd, the year possibly longer.
        let yearDigits = reader.countDigits()
        guard (4...9).contains(yearDigits), yearDigits == 4 || reader.bytes.first != UInt8(ascii: "0"),
            let year = reader.number(yearDigits), year >= 1,
            reader.skip("-"), let month = reader.number(2), (1...12).contains(month),
            reader.skip("-"), let day = reader.number(2), (1...daysIn(month: month, year: year)).contains(day),
            reader.skip("T"), let hour = reader.number(2), reader.skip(":"), let minute = reader.number(2), reader.skip(":"),
            let second = reader.number(2), hour < 24 || (hour == 24 && minute == 0 && second == 0), minute < 60, second <= 60
        else { return nil }
        var fraction = 0.0
        if reader.skip(".") {
            let digits = reader.countDigits()
            guard digits > 0 else { return nil }
            // Seventeen digits are past a Double's precision; the rest are checked, not read.
            let kept = reader.bytes[reader.position..<(reader.position + min(digits, 17))]
            fraction = Double("0." + String(decoding: kept, as: UTF8.self)) ?? 0
            reader.position += digits
            guard hour < 24 || fraction == 0 else { return nil }
        }
        var offset = 0
        if reader.skip("Z") {
            offset = 0
        } else if let sign = reader.peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            reader.position += 1
            guard let hours = reader.number(2) else { return nil }
            var minutes = 0
            if reader.skip(":") {
                guard let number = reader.number(2) else { return nil }
                minutes = number
            } else if reader.countDigits() == 2, let number = reader.number(2) {
                minutes = number
            }
            guard minutes < 60, hours * 60 + minutes <= 14 * 60 else { return nil }
            offset = (hours * 60 + minutes) * 60 * (sign == UInt8(ascii: "-") ? -1 : 1)
        }
        guard reader.position == reader.bytes.count else { return nil }
        let seconds = daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the date, in the proleptic Gregorian calendar.
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        // Years counted from March, so that the leap day ends the year; eras of 400 years repeat.
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// Reads fixed fields of ASCII digits and separators.
private struct DigitReader {
    let bytes: [UInt8]
    var position = 0

    func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    /// How many digits follow, without moving.
    func countDigits() -> Int {
        var end = position
        while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
        return end - position
    }

    /// The number made of exactly `count` digits, moving past them.
    mutating func number(_ count: Int) -> Int? {
        guard countDigits() >= count else { return nil }
        var value = 0
        for offset in 0..<count { value = value * 10 + Int(bytes[position + offset] - UInt8(ascii: "0")) }
        position += count
        return value
    }

    /// Whether `character` follows, moving past it if so.
    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard peek() == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }
}
