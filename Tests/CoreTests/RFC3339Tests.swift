@testable import Core
import Testing

struct RFC3339Tests {
    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00Z"),
        (0.999, "1970-01-01T00:00:00Z"),
        (-0.5, "1969-12-31T23:59:59Z"),
        (-1, "1969-12-31T23:59:59Z"),
        (951_782_400, "2000-02-29T00:00:00Z"),   // leap day of a year divisible by 400
        (951_868_799, "2000-02-29T23:59:59Z"),
        (951_868_800, "2000-03-01T00:00:00Z"),
        (1_078_012_800, "2004-02-29T00:00:00Z"),
        (4_107_542_400, "2100-03-01T00:00:00Z"), // 2100 is not a leap year: no Feb 29
        (4_102_444_800, "2100-01-01T00:00:00Z"),
        (1_700_000_000.75, "2023-11-14T22:13:20Z"),
        (-2_208_988_800, "1900-01-01T00:00:00Z"),
        (-62_167_219_200, "0000-01-01T00:00:00Z"),
        (-62_162_035_201, "0000-02-29T23:59:59Z"), // year 0 is a leap year
        (253_402_300_799, "9999-12-31T23:59:59Z"),
        (253_402_300_799.9, "9999-12-31T23:59:59Z"),
    ])
    func formats(time: Double, expected: String) {
        #expect(RFC3339.format(unixTime: time) == expected)
    }

    /// Out of years 0…9999 or not finite: nil, never a trap.
    @Test(arguments: [
        .nan, .infinity, -.infinity, 1e300, -1e300, Double.greatestFiniteMagnitude,
        253_402_300_800, -62_167_219_200.5, 9.3e18, -9.3e18,
    ])
    func refuses(time: Double) {
        #expect(RFC3339.format(unixTime: time) == nil)
    }

    /// CivilDate.days(year:month:day:) and civil(fromDays:) invert each other on
    /// every 97th day across the whole range (and on era boundaries).
    @Test func daysFromCivilRoundTrip() {
        let first = CivilDate.days(year: 0, month: 1, day: 1)
        let last = CivilDate.days(year: 9999, month: 12, day: 31)
        #expect(first == -719_528 && last == 2_932_896)
        for days in Array(stride(from: first, through: last, by: 97)) + [-1, 0, 10_957, 11_016, last] {
            let date = CivilDate.civil(fromDays: days)
            #expect(CivilDate.days(year: date.year, month: date.month, day: date.day) == days)
            #expect((1...12).contains(date.month) && (1...31).contains(date.day))
        }
    }
}
