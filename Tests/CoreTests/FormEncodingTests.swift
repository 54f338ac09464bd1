import Testing
@testable import Core

struct FormEncodingTests {
    /// WHATWG application/x-www-form-urlencoded: only *-._ and alphanumerics
    /// stay, space is '+', everything else %XX of its UTF-8 bytes, upper-case hex.
    @Test(arguments: [
        ("", ""), ("abcXYZ019", "abcXYZ019"), ("*-._", "*-._"), ("a b", "a+b"), ("+", "%2B"), ("%", "%25"),
        ("~", "%7E"), ("a=b&c", "a%3Db%26c"), ("/?:@#[]", "%2F%3F%3A%40%23%5B%5D"), ("é", "%C3%A9"), ("€", "%E2%82%AC"),
        ("😀", "%F0%9F%98%80"), ("\n\r\t", "%0A%0D%09"), ("'\"<>", "%27%22%3C%3E"), ("p@ss:w/rd+ =%&", "p%40ss%3Aw%2Frd%2B+%3D%25%26"),
        ("http://127.0.0.1:8765/cb", "http%3A%2F%2F127.0.0.1%3A8765%2Fcb"), ("\u{0}", "%00"), ("\u{7F}", "%7F"),
    ])
    func escape(text: String, expected: String) {
        #expect(FormEncoding.escape(text) == expected)
    }

    @Test(arguments: [
        ([], ""), ([("a", "1")], "a=1"), ([("a", "1"), ("b c", "x&y")], "a=1&b+c=x%26y"), ([("", "")], "="),
        ([("k", ""), ("k", "v")], "k=&k=v"), ([("name", "José Ñ")], "name=Jos%C3%A9+%C3%91"), ([("a=b", "c=d")], "a%3Db=c%3Dd"),
    ] as [([(String, String)], String)])
    func encode(fields: [(String, String)], expected: String) {
        #expect(FormEncoding.encode(fields) == expected)
    }

    @Test(arguments: [
        ("a+b", "a b"), ("%2B", "+"), ("%2b", "+"), ("a%20b", "a b"), ("%zz", "%zz"), ("abc%", "abc%"), ("%4", "%4"),
        ("%41", "A"), ("a%41", "aA"), ("%%41", "%A"), ("%C3%A9", "é"), ("%e2%82%ac", "€"), ("%F0%9F%98%80", "😀"),
        ("é", "é"), ("%FF", "\u{FFFD}"), ("%C3", "\u{FFFD}"), ("", ""), ("++", "  "), ("%2", "%2"), ("%G1", "%G1"),
    ])
    func unescape(text: String, expected: String) {
        #expect(FormEncoding.unescape(text[...]) == expected)
    }

    @Test(arguments: [
        ("a=1&b=2", ["a=1", "b=2"]),
        ("code=x%2By+z&state=s", ["code=x+y z", "state=s"]),
        ("a=1&&b=2&", ["a=1", "b=2"]),
        ("&", []),
        ("", []),
        ("a=1&a=2&a=1", ["a=1", "a=2", "a=1"]),
        ("flag", ["flag="]),
        ("flag&x=", ["flag=", "x="]),
        ("=v", ["=v"]),
        ("a==b", ["a==b"]),
        ("a%3Db=c%26d", ["a=b=c&d"]),
        ("n%C3%A4me=v%C3%A4lue", ["näme=välue"]),
        ("bad=%zz&end=%", ["bad=%zz", "end=%"]),
    ])
    func decode(text: String, expected: [String]) {
        #expect(FormEncoding.decode(text).map { "\($0.0)=\($0.1)" } == expected)
        #expect(FormEncoding.decode(text[...]).map { "\($0.0)=\($0.1)" } == expected, "Substring overload agrees")
    }

    @Test(arguments: ["", "plain", "a b+c", "p@ss:w/rd+ =%&", "%41%zz%", "é€😀", "line\r\nbreak", "=&=&"])
    func roundTrip(value: String) {
        let encoded = FormEncoding.encode([(value, value), ("x", value)])
        let decoded = FormEncoding.decode(encoded)
        #expect(decoded.count == 2)
        #expect(decoded.first?.0 == value && decoded.first?.1 == value)
        #expect(decoded.last?.0 == "x" && decoded.last?.1 == value)
    }
}
