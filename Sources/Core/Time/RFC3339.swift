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
        let (days, secondOfDay) = CivilDate.floorDivision(seconds, 86_400)
        let (year, month, day) = CivilDate.civil(fromDays: days)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
            + "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))Z"
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
