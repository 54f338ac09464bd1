import Core

/// The lenient cookie-date algorithm of RFC 6265 §5.1.1, which accepts what
/// servers actually send (`Wed, 09 Jun 2021 10:18:14 GMT`,
/// `Wednesday, 09-Jun-21 10:18:14 GMT`, `Wed Jun  9 10:18:14 2021`) without a
/// date library. Returns seconds since 1970, or nil when it is no date.
package enum CookieDate {
    static func parse(_ text: String) -> Double? {
        var time: (hour: Int, minute: Int, second: Int)?
        var day: Int?, month: Int?, year: Int?
        for token in tokens(Array(text.utf8.prefix(1_024))) {
            if time == nil, let found = parseTime(token) {
                time = found
            } else if day == nil, let found = leadingDigits(token, 1...2) {
                day = found
            } else if month == nil, let found = parseMonth(token) {
                month = found
            } else if year == nil, let found = leadingDigits(token, 2...4) {
                year = found
            }
        }
        guard let time, let day, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard year >= 1601, time.hour <= 23, time.minute <= 59, time.second <= 59,
              day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        let days = Int(CivilDate.days(year: Int64(year), month: Int64(month), day: Int64(day)))
        return Double(days * 86_400 + time.hour * 3_600 + time.minute * 60 + time.second)
    }

    /// Splits at the §5.1.1 delimiters (tab, space and most punctuation,
    /// but not `:`).
    private static func tokens(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split { byte in
            byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte)
                || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
        }
    }

    /// `digits` digits, then nothing or a non-digit and anything.
    private static func leadingDigits(_ token: ArraySlice<UInt8>, _ digits: ClosedRange<Int>) -> Int? {
        let run = token.prefix { isDigit($0) }
        guard digits.contains(run.count) else { return nil }
        return run.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// `h:m:s` with one or two digits each, then a non-digit and anything.
    private static func parseTime(_ token: ArraySlice<UInt8>) -> (hour: Int, minute: Int, second: Int)? {
        var fields: [Int] = []
        var rest = token
        for index in 0..<3 {
            let run = rest.prefix { isDigit($0) }
            guard (1...2).contains(run.count) else { return nil }
            fields.append(run.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) })
            rest = rest.dropFirst(run.count)
            if index < 2 {
                guard rest.first == UInt8(ascii: ":") else { return nil }
                rest = rest.dropFirst()
            }
        }
        return (fields[0], fields[1], fields[2])
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    private static func parseMonth(_ token: ArraySlice<UInt8>) -> Int? {
        guard token.count >= 3 else { return nil }
        let prefix = String(decoding: token.prefix(3).map { $0 | 0x20 }, as: UTF8.self)
        return months.firstIndex(of: prefix).map { $0 + 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
