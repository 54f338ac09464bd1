/// Days of the proleptic Gregorian calendar counted from 1970-01-01, both
/// ways (H. Hinnant's days_from_civil and civil_from_days): years start on
/// March 1, so the leap day ends a year, and count in 400-year eras of
/// 146097 days — no table, no loop over years, exact for negative days too.
/// The one place the calendar is computed (RFC3339.swift, HTTP/CookieDate.swift).
package enum CivilDate {
    /// Days from 1970-01-01 to a date.
    package static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let marchYear = month <= 2 ? year - 1 : year
        let era = floorDivision(marchYear, 400).quotient
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Year, month, day of the day `days` after 1970-01-01.
    package static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
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

    /// Division rounding toward negative infinity, remainder never negative.
    package static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }
}
