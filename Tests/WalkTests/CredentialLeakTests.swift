import Testing
@testable import Core
@testable import HTTP
@testable import Walk

/// A hop that would carry a --form value, however the server nested or
/// encoded it, is found before it is sent (Flow/MethodFallback.swift).
@Suite struct CredentialLeakTests {
    static let leak = CredentialLeak([NameValue("username", "alice"), NameValue("password", "p&ss w+rd"), NameValue("remember", "")])

    static func get(_ url: String) -> HTTPRequest { HTTPRequest(method: "GET", url: url) }

    @Test(arguments: [
        "https://as.example/authorize?client_id=a&username=alice",
        "https://as.example/authorize?password=p%26ss+w%2Brd&x=1",
        "https://as.example/authorize?password=p%26ss%20w%2Brd",
        "https://as.example/login?next=%2Fauthorize%3Fpassword%3Dp%2526ss%2Bw%252Brd%26y%3D2",
        "https://as.example/continue?next=%252Fauthorize%253Fusername%253Dalice%2526z%253D1",
        "https://as.example/cb?callback_url=https%3A%2F%2Fas.example%2Fa%3Fusername%3Dalice",
    ])
    func carriedInTheURL(_ url: String) {
        #expect(Self.leak.isCarried(by: Self.get(url), filledByUs: false))
    }

    @Test(arguments: [
        "https://as.example/authorize?client_id=a&state=xyz",
        "https://as.example/users/alice",               // a path is not a parameter
        "https://as.example/a?user=alice",              // another name
        "https://as.example/a?username=alicex",         // another value
        "https://as.example/a?username=xalice",
        "https://as.example/a?remember=&q=1",           // empty values are never matched
        "https://as.example/a?next=%2Fb%3Fusername%3Dalicia",
    ])
    func notCarried(_ url: String) {
        #expect(!Self.leak.isCarried(by: Self.get(url), filledByUs: false))
    }

    @Test func aGETFormWeFilledMayHoldOurValuesButNotNestedOnes() {
        #expect(!Self.leak.isCarried(by: Self.get("https://as.example/login?username=alice&password=p%26ss+w%2Brd"), filledByUs: true))
        #expect(Self.leak.isCarried(by: Self.get("https://as.example/login?username=alice&next=%2Fa%3Fusername%3Dalice"), filledByUs: true))
    }

    @Test func aHiddenFieldOfAPOSTBodyHoldingTheCopiedRequest() {
        let login = HTTPRequest.form(url: "https://as.example/login", fields: [
            ("username", "alice"), ("password", "p&ss w+rd"), ("next", "/authorize?client_id=a&password=p%26ss+w%2Brd"),
        ])
        #expect(Self.leak.isCarried(by: login, filledByUs: true))
        let clean = HTTPRequest.form(url: "https://as.example/login", fields: [("username", "alice"), ("password", "p&ss w+rd"), ("next", "/authorize")])
        #expect(!Self.leak.isCarried(by: clean, filledByUs: true))
    }

    @Test func noFormValuesNothingToFind() {
        #expect(!CredentialLeak([]).isCarried(by: Self.get("https://as.example/a?username=alice"), filledByUs: false))
    }
}
