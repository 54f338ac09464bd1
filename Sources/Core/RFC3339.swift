/// UTC timestamps as RFC 3339 §5.6 `date-time` with `Z`, whole seconds:
/// `2000-02-29T00:00:00Z` — what `expires_at` and a Kubernetes
/// `expirationTimestamp` carry. Proleptic Gregorian calendar throughout
/// (RFC 3339 §5.6 uses it for every year), no leap seconds (POSIX time has none).
package enum RFC3339 {
    /// 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z: `date-fullyear` is
    /// four digits (RFC 3339 §5.6), so nothing outside them can be written.
    static let earliest: Int64 = -62_167_219_200
    static let latest: Int64 = 253_402_300_799

    /// `unixTime` rounded down to the second; nil when not finite or outside
    /// years 0 to 9999. Range-checked as a Double first so that converting
    /// 1e300 or NaN to an integer never traps.
    package static func format(unixTime: Double) -> String? {
        let whole = unixTime.rounded(.down)
        guard whole.isFinite, whole >= Double(earliest), whole <= Double(latest) else { return nil }
        let seconds = Int64(whole)
        let (days, secondOfDay) = floorDivision(seconds, 86_400)
        let (year, month, day) = civil(fromDays: days)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
            + "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))Z"
    }

    /// Year, month, day of the day `days` after 1970-01-01: the inverse of
    /// the days-from-civil algorithm. Years start on March 1, so the leap
    /// day ends a year, and count in 400-year eras of 146097 days: no table,
    /// no loop over years, exact for negative days too.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468                                    // days since 0000-03-01
        let era = floorDivision(shifted, 146_097).quotient
        let dayOfEra = shifted - era * 146_097                          // 0...146096
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100) // from March 1
        let shiftedMonth = (5 * dayOfYear + 2) / 153                    // March = 0
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (the same algorithm,
    /// forwards); the tests use it to check `civil(fromDays:)` both ways.
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let marchYear = month <= 2 ? year - 1 : year
        let era = floorDivision(marchYear, 400).quotient
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Division rounding toward negative infinity, remainder never negative.
    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
