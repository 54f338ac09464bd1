import Testing
@testable import Core
@testable import HTTP
@testable import OAuth

struct AuthorizationRequestTests {
    static let state = "AQEBAQEBAQEBAQEBAQEBAQ"          // base64url(16 × 0x01), the first random draw
    static let nonce = "AgICAgICAgICAgICAgICAg"          // base64url(16 × 0x02), the second draw with openid
    static let challenge2 = "bB1ju9q0N8VDaMu9iIaohqea2XcpfiZe6_H19fAVM7k" // S256 of base64url(32 × 0x02)
    static let verifier2 = "AgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgI"
    static let challenge3 = "g77gcvvTQj90gfwWOCFjatjPtz-u8N0FgfOXnqDHMbk" // S256 of base64url(32 × 0x03)
    static let redirect = "http://127.0.0.1:8765/cb"

    /// The n-th call of `random` returns bytes all equal to n.
    static func make(scope: String? = nil, pkce: PKCEMethod = .s256, mode: ResponseMode? = nil, params: [NameValue] = []) -> AuthorizationRequest {
        var calls = 0
        return AuthorizationRequest(clientID: "app", redirectURI: redirect, scope: scope, pkce: pkce, responseMode: mode, extra: params) { count in
            calls += 1
            return [UInt8](repeating: UInt8(calls), count: count)
        }
    }

    static func listed(_ request: AuthorizationRequest) -> [String] {
        request.parameters.map { "\($0.name)=\($0.value)" }
    }

    static let head = ["response_type=code", "client_id=app", "redirect_uri=\(redirect)"]

    @Test func minimal() {
        let request = Self.make()
        #expect(Self.listed(request) == Self.head + ["state=\(Self.state)", "code_challenge=\(Self.challenge2)", "code_challenge_method=S256"])
        #expect(request.state == Self.state)
        #expect(request.nonce == nil)
        #expect(request.pkce.verifier == Self.verifier2)
    }

    @Test func openIDWithEverything() {
        let request = Self.make(scope: "openid profile", mode: .fragment, params: [NameValue("prompt", "login")])
        #expect(Self.listed(request) == Self.head + [
            "scope=openid profile", "state=\(Self.state)", "code_challenge=\(Self.challenge3)", "code_challenge_method=S256",
            "nonce=\(Self.nonce)", "response_mode=fragment", "prompt=login",
        ])
        #expect(request.nonce == Self.nonce)
    }

    /// OIDC Core §3.1.2.1: a nonce only when "openid" is one of the scopes.
    @Test(arguments: [
        ("openid", true), ("profile openid", true), ("  openid  ", true), ("openidx", false), ("profile", false),
        ("OPENID", false), ("", false),
    ])
    func nonceOnlyWithOpenID(scope: String, hasNonce: Bool) {
        let request = Self.make(scope: scope)
        #expect((request.nonce != nil) == hasNonce)
        #expect(request.parameters.contains { $0.name == "nonce" } == hasNonce)
        #expect(request.parameters.contains { $0.name == "scope" } == !scope.isEmpty)
    }

    @Test(arguments: [(PKCEMethod.s256, ["code_challenge=\(challenge2)", "code_challenge_method=S256"]),
                      (.plain, ["code_challenge=\(verifier2)", "code_challenge_method=plain"]), (.off, [])])
    func pkceParameters(method: PKCEMethod, expected: [String]) {
        #expect(Self.listed(Self.make(pkce: method)) == Self.head + ["state=\(Self.state)"] + expected)
    }

    @Test(arguments: ResponseMode.allCases)
    func responseMode(mode: ResponseMode) {
        #expect(Self.listed(Self.make(mode: mode)).last == "response_mode=\(mode.rawValue)")
    }

    /// --param replaces response_type, scope, redirect_uri, client_id (moved
    /// to the end), and adds anything else.
    @Test(arguments: [
        ([NameValue("scope", "other")], ["response_type=code", "client_id=app", "redirect_uri=\(redirect)", "state=\(state)",
                                          "code_challenge=\(challenge3)", "code_challenge_method=S256", "nonce=\(nonce)", "scope=other"]),
        ([NameValue("response_type", "code id_token")], ["client_id=app", "redirect_uri=\(redirect)", "scope=openid", "state=\(state)",
                                                         "code_challenge=\(challenge3)", "code_challenge_method=S256", "nonce=\(nonce)",
                                                         "response_type=code id_token"]),
        ([NameValue("client_id", "x"), NameValue("audience", "api")], ["response_type=code", "redirect_uri=\(redirect)", "scope=openid",
                                                                       "state=\(state)", "code_challenge=\(challenge3)", "code_challenge_method=S256",
                                                                       "nonce=\(nonce)", "client_id=x", "audience=api"]),
    ])
    func paramOverrides(params: [NameValue], expected: [String]) {
        #expect(Self.listed(Self.make(scope: "openid", params: params)) == expected)
    }

    /// The parameters and nothing else: `--form` values never go into the
    /// authorization request (README "How the walk works", step 2), so the type takes none.
    @Test func postBodyCarriesOnlyTheParameters() throws {
        let request = Self.make().httpRequest(endpoint: "https://as.example/authorize?tenant=1#x", method: .post,
                                              headers: [HTTPHeader("X-A", "1")])
        #expect(request.method == "POST")
        #expect(request.url == "https://as.example/authorize?tenant=1#x")
        #expect(request.headers == [HTTPHeader("X-A", "1"), HTTPHeader("Content-Type", "application/x-www-form-urlencoded")])
        #expect(String(decoding: try #require(request.body), as: UTF8.self) ==
            "response_type=code&client_id=app&redirect_uri=http%3A%2F%2F127.0.0.1%3A8765%2Fcb&state=\(Self.state)" +
            "&code_challenge=\(Self.challenge2)&code_challenge_method=S256")
    }

    static let query = "response_type=code&client_id=app&redirect_uri=http%3A%2F%2F127.0.0.1%3A8765%2Fcb&state=\(state)" +
        "&code_challenge=\(challenge2)&code_challenge_method=S256"

    /// GET: parameters in the query; an existing query kept; a trailing '?' or
    /// '&' reused; a fragment dropped.
    @Test(arguments: [
        ("https://as.example/authorize", "https://as.example/authorize?" + query),
        ("https://as.example/authorize?tenant=a", "https://as.example/authorize?tenant=a&" + query),
        ("https://as.example/authorize?", "https://as.example/authorize?" + query),
        ("https://as.example/authorize?tenant=a&", "https://as.example/authorize?tenant=a&" + query),
        ("https://as.example/authorize#frag", "https://as.example/authorize?" + query),
        ("https://as.example/authorize?tenant=a#frag", "https://as.example/authorize?tenant=a&" + query),
        ("https://as.example/authorize#frag?x=1", "https://as.example/authorize?" + query),
    ])
    func getURL(endpoint: String, expected: String) {
        let request = Self.make().httpRequest(endpoint: endpoint, method: .get, headers: [])
        #expect(request.method == "GET")
        #expect(request.url == expected)
        #expect(request.body == nil)
        #expect(request.headers.isEmpty)
    }
}
