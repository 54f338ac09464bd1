import Testing
@testable import Core
@testable import HTTP
@testable import OAuth

struct AuthorizationResponseTests {
    static let place = "http://127.0.0.1:8765/cb"

    static func response(_ location: String) throws -> AuthorizationResponse {
        try AuthorizationResponse(redirect: try #require(URIReference(location)), where: place)
    }

    /// (Location, code, state, iss, error, error_description).
    @Test(arguments: [
        ("http://127.0.0.1:8765/cb?code=abc&state=xyz", "abc", "xyz", nil, nil, nil),
        ("http://127.0.0.1:8765/cb#code=abc&state=xyz", "abc", "xyz", nil, nil, nil),
        ("http://127.0.0.1:8765/cb?code=q&state=s#code=f&state=g", "q", "s", nil, nil, nil),
        ("http://127.0.0.1:8765/cb?tenant=a#code=f&state=g", "f", "g", nil, nil, nil),
        ("http://127.0.0.1:8765/cb?state=s#code=f", nil, "s", nil, nil, nil),
        ("http://127.0.0.1:8765/cb?iss=https%3A%2F%2Fidp#code=f&state=g", "f", "g", nil, nil, nil),
        ("http://127.0.0.1:8765/cb?code=a%2Fb%2Bc+d&state=s%3D&iss=https%3A%2F%2Fidp.example", "a/b+c d", "s=", "https://idp.example", nil, nil),
        ("http://127.0.0.1:8765/cb?error=access_denied&error_description=User+said+no&state=s", nil, "s", nil, "access_denied", "User said no"),
        ("http://127.0.0.1:8765/cb#error=invalid_scope", nil, nil, nil, "invalid_scope", nil),
        ("http://127.0.0.1:8765/cb?foo=1&foo=2&code=c&state=s", "c", "s", nil, nil, nil),
        ("http://127.0.0.1:8765/cb", nil, nil, nil, nil, nil),
        ("http://127.0.0.1:8765/cb?code=&state=", "", "", nil, nil, nil),
    ] as [(String, String?, String?, String?, String?, String?)])
    func fields(location: String, code: String?, state: String?, iss: String?, error: String?, description: String?) throws {
        let response = try Self.response(location)
        #expect(response == AuthorizationResponse(code: code, state: state, iss: iss, error: error, errorDescription: description))
    }

    /// RFC 6749 §3.1: a parameter twice is refused, not guessed.
    @Test(arguments: [
        ("?code=a&code=b&state=s", "code"), ("?code=a&state=s&state=t", "state"), ("?code=a&state=s&iss=x&iss=y", "iss"),
        ("?error=a&error=b", "error"), ("?error=a&error_description=x&error_description=y", "error_description"),
        ("#code=a&state=s&code=a", "code"), ("?code=a&state=s&code=", "code"),
    ])
    func duplicatesRefused(suffix: String, name: String) {
        #expect(throws: OAuthError.repeatedParameter(name, at: Self.place)) {
            try Self.response(Self.place + suffix)
        }
    }

    @Test func formPostFields() throws {
        let response = try AuthorizationResponse(fields: [("code", "c"), ("state", "s"), ("iss", "i"), ("other", "x"), ("other", "y")], where: "https://as/p")
        #expect(response == AuthorizationResponse(code: "c", state: "s", iss: "i"))
        #expect(throws: OAuthError.repeatedParameter("state", at: "https://as/p")) {
            try AuthorizationResponse(fields: [("state", "s"), ("code", "c"), ("state", "s")], where: "https://as/p")
        }
    }
}
