import Testing
@testable import Core
@testable import HTTP
@testable import OAuth
@testable import Walk
@testable import Flow
@testable import CLI

struct SuggestionTests {
    @Test(arguments: [
        ("--client-ids", "--client-id"), ("--tokenurl", "--token-url"), ("--xyzzy", nil), ("--verbos", "--verbose"),
        ("--redirect-url", "--redirect-uri"), ("--scopes", "--scope"), ("--CLIENT-ID", "--client-id"), ("--authorize-uri", "--authorize-url"),
        ("--insecur", "--insecure"), ("--pkc", "--pkce"), ("--head", "--header"), ("--allow_http", "--allow-http"),
        ("--clientsecret", "--client-secret"), ("--max-hop", "--max-hops"), ("--expect-issuer", "--expect-iss"), ("--timout", "--timeout"),
        ("--clint-id", "--client-id"), ("--issuer-url", nil), ("--secret", nil), ("--cafile", nil), ("--", nil), ("-z", nil), ("--x", nil),
        ("client-ids", "--client-id"),
    ] as [(String, String?)])
    func closest(typed: String, expected: String?) {
        #expect(Suggestion.closest(to: typed) == expected)
    }

    @Test(arguments: [
        ("", "", 0), ("", "abc", 3), ("abc", "", 3), ("abc", "abc", 0), ("kitten", "sitting", 3), ("flaw", "lawn", 2),
        ("client-ids", "client-id", 1), ("tokenurl", "token-url", 1), ("ab", "ba", 2), ("é", "e", 1),
    ])
    func editDistance(a: String, b: String, distance: Int) {
        #expect(Suggestion.editDistance(a, b) == distance)
        #expect(Suggestion.editDistance(b, a) == distance)
    }

    /// Every real option suggests itself, so the table and the suggester agree.
    @Test(arguments: OptionTable.all.map(\.long))
    func everyOptionSuggestsItself(long: String) {
        #expect(Suggestion.closest(to: "--" + long) == "--" + long)
    }

    /// The parser's error for an unknown option carries the suggestion as its hint.
    @Test(arguments: [
        ("--client-ids", "--client-id"), ("--tokenurl", "--token-url"), ("--xyzzy", nil), ("--client-ids=app", "--client-id"),
        ("-z", nil), ("--verbos", "--verbose"),
    ] as [(String, String?)])
    func unknownOption(typed: String, suggestion: String?) {
        let option = typed.split(separator: "=").first.map(String.init) ?? typed
        let hint = suggestion.map { "Did you mean '\($0)'? See 'authcode --help'." } ?? "See 'authcode --help'."
        #expect(throws: UsageError("unknown option '\(option)'", hint: hint)) { try CLI.parse(CLI.arguments([typed])) }
    }
}
