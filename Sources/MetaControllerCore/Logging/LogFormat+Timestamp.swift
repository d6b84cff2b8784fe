import Foundation

extension LogFormat {
    /// `2026-11-22T10:15:03.120Z`: the instant in UTC, rounded to the nearest
    /// millisecond (a half rounds to the later one), as Foundation's
    /// `ISO8601DateFormatter` with fractional seconds writes it.
    ///
    /// The date's milliseconds since 1970 are rounded once; the fields follow
    /// from them with integer arithmetic, so the rounding carries into seconds,
    /// minutes and the date (`23:59:59.9996` is the next day's `00:00:00.000`).
    /// Years outside 1 to 9999 fall back to Foundation's ISO 8601 style, which
    /// truncates to the millisecond.
    static func timestamp(_ date: Date) -> String {
        guard let milliseconds = millisecondsSince1970(date),
            (minimumMilliseconds..<maximumMilliseconds).contains(milliseconds)
        else {
            return date.formatted(
                .iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: true)
                    .timeSeparator(.colon).timeZone(separator: .omitted))
        }
        let (days, millisecondOfDay) = floorDivision(milliseconds, 86_400_000)
        let (year, month, day) = civilDate(daysSince1970: days)
        let (second, millisecond) = (millisecondOfDay / 1000, millisecondOfDay % 1000)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        func append(_ value: Int64, digits: Int) {
            var divisor: Int64 = 1
            for _ in 1..<digits { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        append(year, digits: 4)
        bytes.append(UInt8(ascii: "-"))
        append(month, digits: 2)
        bytes.append(UInt8(ascii: "-"))
        append(day, digits: 2)
        bytes.append(UInt8(ascii: "T"))
        append(second / 3600, digits: 2)
        bytes.append(UInt8(ascii: ":"))
        append(second / 60 % 60, digits: 2)
        bytes.append(UInt8(ascii: ":"))
        append(second % 60, digits: 2)
        bytes.append(UInt8(ascii: "."))
        append(millisecond, digits: 3)
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// 0001-01-01T00:00:00.000Z and 10000-01-01T00:00:00.000Z, in milliseconds since 1970.
    private static let minimumMilliseconds: Int64 = -62_135_596_800_000
    private static let maximumMilliseconds: Int64 = 253_402_300_800_000

    /// The whole milliseconds since 1970 nearest to `date`, a half rounding up:
    /// `timeIntervalSince1970` times 1000, plus a half, rounded down, in
    /// `Double` as Foundation's formatter computes it (so an instant within a
    /// fraction of a microsecond of a half millisecond rounds as it does there).
    /// `nil` beyond about 3 million years.
    static func millisecondsSince1970(_ date: Date) -> Int64? {
        let milliseconds = (date.timeIntervalSince1970 * 1000 + 0.5).rounded(.down)
        guard milliseconds.isFinite, abs(milliseconds) < 1e17 else { return nil }
        return Int64(milliseconds)
    }

    /// `value` divided by `divisor` (positive), rounded toward negative infinity, and the non-negative remainder.
    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    /// The proleptic Gregorian year, month and day `days` after 1970-01-01.
    private static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        // Days since 0000-03-01, in 400-year eras of 146,097 days; a year runs from March.
        let (era, dayOfEra) = floorDivision(days + 719_468, 146_097)
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (era * 400 + yearOfEra + (month <= 2 ? 1 : 0), month, day)
    }
}
