import Testing
@testable import Core
@testable import HTTP
@testable import JOSE
@testable import OAuth

/// The requests of the modern client profile, as values: client
/// authentication fields by method, the token and PAR requests, request
/// objects and client assertions. Signatures are checked end to end by the
/// fixture's `cryptography` and by Glewlwyd, not here.
struct ProfileRequestTests {
    static func body(_ request: HTTPRequest) -> String {
        request.body.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// The decoded header and payload of a compact JWS.
    static func parts(_ jwt: String) -> (header: JSONValue, claims: JSONValue) {
        let pieces = jwt.split(separator: ".", omittingEmptySubsequences: false)
        let header = Base64URL.decode(pieces[0]).flatMap(JSONValue.parse) ?? .null
        let claims = Base64URL.decode(pieces[1]).flatMap(JSONValue.parse) ?? .null
        return (header, claims)
    }

    @Test(arguments: [
        (ClientAuthMethod.privateKeyJWT, "client_id=app&client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=a.b.c"),
        (.clientSecretJWT, "client_id=app&client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=a.b.c"),
        (.tlsClientAuth, "client_id=app"),
        (.selfSignedTLSClientAuth, "client_id=app"),
        (.none, "client_id=app"),
        (.clientSecretPost, "client_id=app&client_secret=s3cret"),
    ])
    func authenticationFields(method: ClientAuthMethod, expected: String) {
        let authentication = ClientAuthentication(ClientCredentials(id: "app", secret: "s3cret", method: method), assertion: "a.b.c")
        #expect(FormEncoding.encode(authentication.fields) == expected)
        #expect(authentication.headers.isEmpty)
    }

    @Test func tokenRequestCarriesResourcesThenTheAssertion() {
        let request = TokenRequest(tokenURL: "https://as.example/token", grant: .refreshToken("rt", scope: nil),
                                   client: ClientCredentials(id: "app", secret: nil, method: .privateKeyJWT), assertion: "h.p.s",
                                   resources: ["https://api.example/", "urn:x"]).httpRequest(headers: [])
        #expect(Self.body(request) == "grant_type=refresh_token&refresh_token=rt&resource=https%3A%2F%2Fapi.example%2F&resource=urn%3Ax"
                + "&client_id=app&client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=h.p.s")
        #expect(request.headers.first(named: "Authorization") == nil)
    }

    /// RFC 6749 §3.1: client_id is an authorization parameter and part of
    /// the authentication; PAR sends it once.
    @Test(arguments: [ClientAuthMethod.privateKeyJWT, .clientSecretPost, .none, .clientSecretBasic])
    func pushedRequestSendsEveryNameOnce(method: ClientAuthMethod) {
        let parameters = [NameValue("response_type", "code"), NameValue("client_id", "app"), NameValue("state", "xyz")]
        let request = PushedAuthorizationRequest(endpoint: "https://as.example/par", parameters: parameters,
                                                 authentication: ClientAuthentication(ClientCredentials(id: "app", secret: "pw", method: method),
                                                                                      assertion: "h.p.s")).httpRequest()
        let names = FormEncoding.decode(Self.body(request)).map(\.0)
        #expect(names.filter { $0 == "client_id" }.count == 1, "\(names)")
        #expect(Array(names.prefix(3)) == ["response_type", "client_id", "state"])
        #expect(request.method == "POST" && request.url == "https://as.example/par")
        #expect((request.headers.first(named: "Authorization") != nil) == (method == .clientSecretBasic))
    }

    @Test func clientAssertionClaims() throws {
        let signer = try JWSSigner(key: SigningKey.generate())
        let jwt = try ClientAssertion(signer: signer, keyID: "k-1", clientID: "app").make(audience: "https://as.example", now: 1_700_000_000.9, jti: "j-1")
        let (header, claims) = Self.parts(jwt)
        #expect(header == .object(["alg": .string("ES256"), "kid": .string("k-1")]))
        #expect(claims == .object([
            "iss": .string("app"), "sub": .string("app"), "aud": .string("https://as.example"), "jti": .string("j-1"),
            "iat": .number(1_700_000_000), "exp": .number(1_700_000_060),
        ]))
    }

    @Test(arguments: [
        (AssertionAudience?.none, "https://as.example", "https://as.example"),
        (.none, nil, "https://as.example/token"),
        (.issuer, "https://as.example", "https://as.example"),
        (.endpoint, "https://as.example", "https://as.example/par"),
        (.literal("urn:aud"), "https://as.example", "urn:aud"),
    ] as [(AssertionAudience?, String?, String)])
    func assertionAudience(rule: AssertionAudience?, issuer: String?, expected: String) {
        #expect(AssertionAudience.audience(rule, issuer: issuer, endpoint: "https://as.example/par", tokenEndpoint: "https://as.example/token") == expected)
    }

    /// RFC 9101 §4: every parameter inside, plus iss/aud/iat/nbf/exp/jti;
    /// several resources an array, authorization_details its JSON.
    @Test func requestObjectClaims() throws {
        let signer = try JWSSigner(key: SigningKey.generate())
        let parameters = [
            NameValue("response_type", "code"), NameValue("client_id", "app"), NameValue("state", "s"),
            NameValue("resource", "https://a.example/"), NameValue("resource", "urn:b"),
            NameValue("authorization_details", #"[{"type":"t","n":1}]"#),
        ]
        let jwt = try RequestObject.make(parameters: parameters, clientID: "app", audience: "https://as.example", signer: signer,
                                         keyID: "k", now: 100.5, jti: "j")
        let (header, claims) = Self.parts(jwt)
        #expect(header == .object(["alg": .string("ES256"), "kid": .string("k"), "typ": .string("oauth-authz-req+jwt")]))
        #expect(claims == .object([
            "response_type": .string("code"), "client_id": .string("app"), "state": .string("s"),
            "resource": .array([.string("https://a.example/"), .string("urn:b")]),
            "authorization_details": .array([.object(["type": .string("t"), "n": .number(1)])]),
            "iss": .string("app"), "aud": .string("https://as.example"), "iat": .number(100), "nbf": .number(100),
            "exp": .number(400), "jti": .string("j"),
        ]))
        let single = RequestObject.claims([NameValue("resource", "urn:only")])
        #expect(single["resource"] == .string("urn:only"))
    }

    @Test(arguments: [
        (#"[{"type":"payment_initiation","actions":["initiate"]}]"#, nil),
        (#"[{"type":"a"},{"type":"b","x":{}}]"#, nil),
        ("not json", "it is not JSON"),
        (#"{"type":"a"}"#, "it is not a JSON array"),
        ("[]", "the array is empty"),
        (#"[{"type":"a"},"b"]"#, "element 2 is not a JSON object"),
        (#"[{"type":1}]"#, "element 1 has no string \"type\""),
        (#"[{"type":""}]"#, "element 1 has no string \"type\""),
        (#"[{"kind":"a"}]"#, "element 1 has no string \"type\""),
    ] as [(String, String?)])
    func authorizationDetails(text: String, problem: String?) {
        #expect(AuthorizationDetails.problem(in: text) == problem)
    }
}
