import Testing
@testable import Core
@testable import HTTP
@testable import OAuth

struct TokenRequestTests {
    /// RFC 6749 §2.3.1: form-urlencode id and secret, join with ':', base64
    /// (expected strings computed with Python's quote_plus and b64encode).
    @Test(arguments: [
        ("weird:app id", "p@ss:w/rd+ =%&", "Basic d2VpcmQlM0FhcHAraWQ6cCU0MHNzJTNBdyUyRnJkJTJCKyUzRCUyNSUyNg=="),
        ("démo", "s€cret", "Basic ZCVDMyVBOW1vOnMlRTIlODIlQUNjcmV0"),
        ("client", "secret", "Basic Y2xpZW50OnNlY3JldA=="),
        ("a", "", "Basic YTo="),
    ])
    func basicAuthorization(clientID: String, secret: String, expected: String) {
        #expect(TokenRequest.basicAuthorization(clientID: clientID, secret: secret) == expected)
    }

    static func request(_ method: ClientAuthMethod, verifier: String? = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
                        secret: String? = "p@ss:w/rd+ =%&") -> HTTPRequest {
        TokenRequest(tokenURL: "https://as.example/token?x=1",
                     grant: .authorizationCode(code: "c/o+d e=", redirectURI: "http://127.0.0.1:8765/cb", verifier: verifier),
                     client: ClientCredentials(id: "weird:app id", secret: secret, method: method))
            .httpRequest(headers: [HTTPHeader("X-Trace", "1")])
    }

    static let common = "grant_type=authorization_code&code=c%2Fo%2Bd+e%3D&redirect_uri=http%3A%2F%2F127.0.0.1%3A8765%2Fcb"
    static let verifier = "&code_verifier=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"

    @Test func clientSecretBasic() {
        let request = Self.request(.clientSecretBasic)
        #expect(request.method == "POST")
        #expect(request.url == "https://as.example/token?x=1")
        #expect(request.headers == [
            HTTPHeader("X-Trace", "1"), HTTPHeader("Accept", "application/json"),
            HTTPHeader("Authorization", "Basic d2VpcmQlM0FhcHAraWQ6cCU0MHNzJTNBdyUyRnJkJTJCKyUzRCUyNSUyNg=="),
            HTTPHeader("Content-Type", "application/x-www-form-urlencoded"),
        ])
        #expect(request.body.map { String(decoding: $0, as: UTF8.self) } == Self.common + Self.verifier)
    }

    @Test func clientSecretPost() {
        let request = Self.request(.clientSecretPost)
        #expect(request.headers == [
            HTTPHeader("X-Trace", "1"), HTTPHeader("Accept", "application/json"),
            HTTPHeader("Content-Type", "application/x-www-form-urlencoded"),
        ])
        #expect(request.body.map { String(decoding: $0, as: UTF8.self) } ==
            Self.common + Self.verifier + "&client_id=weird%3Aapp+id&client_secret=p%40ss%3Aw%2Frd%2B+%3D%25%26")
    }

    @Test func noneSendsOnlyTheClientID() {
        let request = Self.request(.none, secret: nil)
        #expect(request.headers.first(named: "Authorization") == nil)
        #expect(request.body.map { String(decoding: $0, as: UTF8.self) } == Self.common + Self.verifier + "&client_id=weird%3Aapp+id")
    }

    @Test(arguments: ClientAuthMethod.allCases)
    func withoutVerifierThereIsNoCodeVerifierField(method: ClientAuthMethod) throws {
        let body = try #require(Self.request(method, verifier: nil).body)
        let names = FormEncoding.decode(String(decoding: body, as: UTF8.self)).map(\.0)
        #expect(!names.contains("code_verifier"))
        #expect(Array(names.prefix(3)) == ["grant_type", "code", "redirect_uri"])
        #expect(names.filter { $0 == "client_id" }.count == (method == .clientSecretBasic ? 0 : 1))
        #expect(names.contains("client_secret") == (method == .clientSecretPost))
    }

    /// The redirect_uri goes out byte-for-byte as given (after form encoding).
    @Test(arguments: ["http://127.0.0.1:8765/cb", "com.example.app:/cb", "https://App.Example:443/cb/?a=b&c=%20"])
    func redirectURIRoundTrips(uri: String) throws {
        let request = TokenRequest(tokenURL: "https://as.example/token", grant: .authorizationCode(code: "c", redirectURI: uri, verifier: nil),
                                   client: ClientCredentials(id: "app", secret: nil, method: .none)).httpRequest(headers: [])
        let fields = FormEncoding.decode(String(decoding: try #require(request.body), as: UTF8.self))
        #expect(fields.first { $0.0 == "redirect_uri" }?.1 == uri)
    }

    /// RFC 6749 §6: the refresh grant carries the token and, if given, a
    /// narrower scope, with the same client authentication as the code.
    @Test(arguments: [(nil, "grant_type=refresh_token&refresh_token=r%2Ft+1&client_id=app"),
                      ("openid", "grant_type=refresh_token&refresh_token=r%2Ft+1&scope=openid&client_id=app")] as [(String?, String)])
    func refreshGrant(scope: String?, expected: String) throws {
        let request = TokenRequest(tokenURL: "https://as.example/token", grant: .refreshToken("r/t 1", scope: scope),
                                   client: ClientCredentials(id: "app", secret: nil, method: .none)).httpRequest(headers: [])
        #expect(String(decoding: try #require(request.body), as: UTF8.self) == expected)
    }
}
