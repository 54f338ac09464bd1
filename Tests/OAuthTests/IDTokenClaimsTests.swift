import Testing
@testable import Core
@testable import HTTP
@testable import JOSE
@testable import OAuth

/// The claim rules of OIDC Core §3.1.3.7 (errata 2) and §12.2, one row per
/// rule and edge; the signature is JOSETests' business.
struct IDTokenClaimsTests {
    static let now = 1_700_000_000.0
    static let issuer = "https://idp.example"

    /// A payload: the valid claims with `changes` applied (nil removes a member).
    static func payload(_ changes: [String: String?] = [:]) -> String {
        var members: [(String, String)] = [
            ("iss", #""https://idp.example""#), ("sub", #""alice""#), ("aud", #""app""#),
            ("exp", "\(Int(now) + 600)"), ("iat", "\(Int(now) - 10)"), ("nonce", #""n-1""#), ("auth_time", "\(Int(now) - 100)"),
        ]
        for (name, value) in changes.sorted(by: { $0.key < $1.key }) {
            members.removeAll { $0.0 == name }
            if let value { members.append((name, value)) }
        }
        return "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    static func rules(issuer: ExpectedIssuer = .exact(issuer), trusted: [String] = [], nonce: String? = "n-1", maxAge: Double? = nil,
                      skew: Double = 60) -> IDTokenRules {
        IDTokenRules(issuer: issuer, clientID: "app", trustedAudiences: trusted, nonce: nonce, maxAge: maxAge, skew: skew, now: now)
    }

    static func verify(_ payload: String, _ rules: IDTokenRules = rules()) throws -> [String] {
        try IDTokenClaims(payload: Array(payload.utf8)).verify(rules)
    }

    static func refused(_ problem: ClaimProblem) -> ClaimError {
        ClaimError(.idToken, problem)
    }

    @Test(arguments: [
        (payload(), rules(), ["iss", "aud", "exp", "iat", "sub", "nonce"]),
        (payload(["aud": #"["app"]"#]), rules(), ["iss", "aud", "exp", "iat", "sub", "nonce"]),
        (payload(["aud": #"["app","api"]"#]), rules(trusted: ["api"]), ["iss", "aud", "exp", "iat", "sub", "nonce"]),
        (payload(["azp": #""app""#]), rules(), ["iss", "aud", "azp", "exp", "iat", "sub", "nonce"]),
        (payload(["aud": #"["app","api"]"#, "azp": #""app""#]), rules(trusted: ["api", "other"]), ["iss", "aud", "azp", "exp", "iat", "sub", "nonce"]),
        (payload(["nbf": "\(Int(now) - 10)"]), rules(), ["iss", "aud", "exp", "iat", "nbf", "sub", "nonce"]),
        (payload(["nbf": "\(Int(now) + 59)"]), rules(), ["iss", "aud", "exp", "iat", "nbf", "sub", "nonce"]),
        // No nonce sent (a refresh): none is read, whatever the token says.
        (payload(["nonce": nil]), rules(nonce: nil), ["iss", "aud", "exp", "iat", "sub"]),
        (payload(["nonce": #""whatever""#]), rules(nonce: nil), ["iss", "aud", "exp", "iat", "sub"]),
        // The skew: exp just past, iat just ahead.
        (payload(["exp": "\(Int(now) - 59)"]), rules(), ["iss", "aud", "exp", "iat", "sub", "nonce"]),
        (payload(["iat": "\(Int(now) + 60)"]), rules(), ["iss", "aud", "exp", "iat", "sub", "nonce"]),
        (payload(["exp": "\(Int(now) - 5)"]), rules(skew: 10), ["iss", "aud", "exp", "iat", "sub", "nonce"]),
        (payload(["exp": "1700000600.5", "iat": "1699999999.25"]), rules(), ["iss", "aud", "exp", "iat", "sub", "nonce"]),
        // Far-future finite numbers are times; nothing traps.
        (payload(["exp": "1e300", "iat": "-1e300"]), rules(), ["iss", "aud", "exp", "iat", "sub", "nonce"]),
        (payload(["exp": "1180591620717411303424"]), rules(), ["iss", "aud", "exp", "iat", "sub", "nonce"]),
        // max_age: auth_time recent enough (skew included).
        (payload(), rules(maxAge: 100), ["iss", "aud", "exp", "iat", "sub", "nonce", "auth_time"]),
        (payload(["auth_time": "\(Int(now) - 159)"]), rules(maxAge: 100), ["iss", "aud", "exp", "iat", "sub", "nonce", "auth_time"]),
        (payload(["auth_time": nil]), rules(), ["iss", "aud", "exp", "iat", "sub", "nonce"]),
        // No issuer known: one of the token endpoint's origin.
        (payload(), rules(issuer: .originOf("https://idp.example/oauth/token")), ["iss", "aud", "exp", "iat", "sub", "nonce"]),
        (payload(["iss": #""https://IDP.example:443/realms/x""#]), rules(issuer: .originOf("https://idp.example/token")),
         ["iss", "aud", "exp", "iat", "sub", "nonce"]),
    ] as [(String, IDTokenRules, [String])])
    func accepted(payload: String, rules: IDTokenRules, ran: [String]) throws {
        #expect(try Self.verify(payload, rules) == ran)
    }

    /// Each refusal as a value: its words and hints are the CLI's
    /// (Tests/CLITests/ErrorReportTests.swift).
    static let rejections: [(String, IDTokenRules, ClaimError)] = [
        (payload(["iss": #""https://evil.example""#]), rules(), refused(.issuerNotExpected(.exact(issuer)))),
        (payload(["iss": #""https://idp.example/""#]), rules(), refused(.issuerNotExpected(.exact(issuer)))),
        (payload(["iss": nil]), rules(), refused(.missing("iss"))),
        (payload(["iss": "42"]), rules(), refused(.issuerNotString)),
        (payload(["iss": #""https://evil.example/x""#]), rules(issuer: .originOf("https://idp.example/token")),
         refused(.issuerNotExpected(.originOf("https://idp.example/token")))),
        (payload(["iss": #""http://idp.example""#]), rules(issuer: .originOf("https://idp.example/token")),
         refused(.issuerNotExpected(.originOf("https://idp.example/token")))),
        (payload(["aud": #""other""#]), rules(), refused(.audienceLacksClient("app"))),
        (payload(["aud": #"["other","api"]"#]), rules(), refused(.audienceLacksClient("app"))),
        (payload(["aud": "[]"]), rules(), refused(.audienceLacksClient("app"))),
        (payload(["aud": nil]), rules(), refused(.missing("aud"))),
        (payload(["aud": "42"]), rules(), refused(.audienceMalformed)),
        (payload(["aud": #"["app",42]"#]), rules(), refused(.audienceMalformed)),
        (payload(["aud": #"["app","api"]"#]), rules(), refused(.untrustedAudience)),
        (payload(["aud": #"["app","api"]"#, "azp": #""app""#]), rules(), refused(.untrustedAudience)),
        (payload(["aud": #"["app","api","x"]"#]), rules(trusted: ["api"]), refused(.untrustedAudience)),
        (payload(["azp": #""other""#]), rules(), refused(.authorizedPartyNotClient("app"))),
        (payload(["azp": "null"]), rules(), refused(.authorizedPartyNotClient("app"))),
        (payload(["exp": nil]), rules(), refused(.missing("exp"))),
        (payload(["exp": "\(Int(now) - 60)"]), rules(), refused(.expired(skew: 60))),
        (payload(["exp": "\(Int(now) - 11)"]), rules(skew: 10), refused(.expired(skew: 10))),
        (payload(["exp": "\(Int(now))"]), rules(skew: 0), refused(.expired(skew: 0))),
        (payload(["exp": "-1e300"]), rules(), refused(.expired(skew: 60))),
        // A NumericDate is a finite JSON number (RFC 7519 §2).
        (payload(["exp": #""1700000600""#]), rules(), refused(.notNumericDate("exp"))),
        (payload(["exp": "1e999"]), rules(), refused(.notNumericDate("exp"))),
        (payload(["exp": "-1e999"]), rules(), refused(.notNumericDate("exp"))),
        (payload(["exp": "null"]), rules(), refused(.notNumericDate("exp"))),
        (payload(["exp": "[1]"]), rules(), refused(.notNumericDate("exp"))),
        (payload(["iat": nil]), rules(), refused(.missing("iat"))),
        (payload(["iat": "\(Int(now) + 61)"]), rules(), refused(.issuedInFuture(skew: 60))),
        (payload(["iat": "1e999"]), rules(), refused(.notNumericDate("iat"))),
        (payload(["iat": #""nan""#]), rules(), refused(.notNumericDate("iat"))),
        (payload(["nbf": "\(Int(now) + 61)"]), rules(), refused(.notYetValid(skew: 60))),
        (payload(["nbf": #""0""#]), rules(), refused(.notNumericDate("nbf"))),
        (payload(["sub": nil]), rules(), refused(.missing("sub"))),
        (payload(["sub": #""""#]), rules(), refused(.subjectNotString)),
        (payload(["sub": "42"]), rules(), refused(.subjectNotString)),
        (payload(["nonce": #""n-2""#]), rules(), refused(.nonceMismatch)),
        (payload(["nonce": "1"]), rules(), refused(.nonceMismatch)),
        (payload(["nonce": nil]), rules(), refused(.nonceMissing)),
        (payload(["auth_time": nil]), rules(maxAge: 100), refused(.authTimeMissing)),
        (payload(["auth_time": "\(Int(now) - 161)"]), rules(maxAge: 100),
         refused(.authTimeTooOld(skew: 60))),
        (payload(["auth_time": "0"]), rules(maxAge: 3600), refused(.authTimeTooOld(skew: 60))),
        (payload(["auth_time": #""1""#]), rules(maxAge: 3600), refused(.notNumericDate("auth_time"))),
    ]

    @Test(arguments: rejections)
    func rejected(payload: String, rules: IDTokenRules, expected: ClaimError) {
        #expect(throws: expected) { try Self.verify(payload, rules) }
    }

    /// No refusal carries a value of the token: each names the claim only
    /// (the CLI's words for them: Tests/CLITests/ErrorReportTests.swift).
    @Test func refusalsNeverCarryTheClaim() {
        for (payload, rules, _) in Self.rejections {
            do {
                _ = try Self.verify(payload, rules)
            } catch {
                for value in ["evil", "other", "n-2", "1700000600", "api"] where "\(error)".contains(value) {
                    Issue.record("'\(error)' carries a claim value")
                }
            }
        }
    }

    static func jws(_ payload: String) -> String {
        Base64URL.encode(Array(#"{"alg":"RS256","kid":"k1"}"#.utf8)) + "." + Base64URL.encode(Array(payload.utf8)) + ".c2ln"
    }

    @Test(arguments: [
        ("abc", .idTokenNotJWT(.notCompact)),
        ("a.b", .idTokenNotJWT(.notCompact)),
        ("a.b.c.d", .idTokenNotJWT(.notCompact)),
        ("", .idTokenNotJWT(.notCompact)),
        ("eyJhbGciOiJSU0EtT0FFUCJ9.a.b.c.d", .idTokenEncrypted),
        ("not.a.jwt", .idTokenNotJWT(.badEncoding(.header))),
        (".e30.", .idTokenNotJWT(.badEncoding(.header))),
        ("e30.!!!.c2ln", .idTokenNotJWT(.badEncoding(.payload))),
        ("e30.e30=.c2ln", .idTokenNotJWT(.badEncoding(.payload))),
        ("e30.e30.c2ln", .idTokenNotJWT(.missingAlgorithm)),
        ("WzFd.e30.c2ln", .idTokenNotJWT(.headerNotObject)),
    ] as [(String, OAuthError)])
    func notAJWT(jwt: String, expected: OAuthError) {
        #expect(throws: expected) { try IDTokenClaims.parse(jwt) }
    }

    @Test(arguments: ["[1,2]", "not json", "", "\"claims\"", "{\"a\":1"])
    func payloadNotAnObject(payload: String) throws {
        let jws = try IDTokenClaims.parse(Self.jws(payload))
        #expect(throws: OAuthError.idTokenPayloadNotObject) { try IDTokenClaims(payload: jws.payload) }
    }

    @Test(arguments: [
        (#"{"access_token":"x"}"#, nil), (#"{"access_token":"x","id_token":null}"#, nil), (#"{"id_token":"a.b.c"}"#, "a.b.c"),
    ] as [(String, String?)])
    func idTokenMember(json: String, expected: String?) throws {
        #expect(try IDTokenClaims.jwt(in: JSONValue.parse(Array(json.utf8))!) == expected)
    }

    @Test(arguments: [#"{"id_token":42}"#, #"{"id_token":{"a":1}}"#, #"{"id_token":["a.b.c"]}"#, #"{"id_token":true}"#])
    func idTokenMemberOfAnotherType(json: String) {
        #expect(throws: OAuthError.idTokenNotString) {
            try IDTokenClaims.jwt(in: JSONValue.parse(Array(json.utf8))!)
        }
    }

    // MARK: Refresh (OIDC Core §12.2)

    static func claims(_ changes: [String: String?]) -> IDTokenClaims {
        IDTokenClaims(stored: jws(payload(changes)))!
    }

    @Test(arguments: [
        ([:], [:], "same iss, sub, aud, auth_time as the stored id_token"),
        (["aud": #"["app"]"#], [:], "same iss, sub, aud, auth_time as the stored id_token"),
        (["azp": #""app""#], ["azp": #""app""#], "same iss, sub, aud, azp, auth_time as the stored id_token"),
        // A refreshed token may leave out auth_time and azp (§12.2 "if").
        (["auth_time": nil], [:], "same iss, sub, aud as the stored id_token"),
        (["nonce": nil, "exp": "1", "iat": "2"], [:], "same iss, sub, aud, auth_time as the stored id_token"),
    ] as [([String: String?], [String: String?], String)])
    func refreshKeepsIdentity(new: [String: String?], stored: [String: String?], said: String) throws {
        #expect(try Self.claims(new).keepsIdentity(of: Self.claims(stored)) == said)
    }

    @Test(arguments: [
        (["sub": #""mallory""#], [:], "sub"),
        (["iss": #""https://other-issuer.example""#], [:], "iss"),
        (["aud": #""other-client""#], [:], "aud"),
        (["aud": #"["app","other"]"#], [:], "aud"),
        (["sub": nil], [:], "sub"),
        (["auth_time": "\(Int(now) - 160)"], [:], "auth_time"),
        (["azp": #""app""#], [:], "azp"),
        (["azp": #""other""#], ["azp": #""app""#], "azp"),
    ] as [([String: String?], [String: String?], String)])
    func refreshChangesIdentity(new: [String: String?], stored: [String: String?], claim: String) {
        #expect(throws: OAuthError.identityChanged(claim: claim)) {
            try Self.claims(new).keepsIdentity(of: Self.claims(stored))
        }
    }

    // MARK: Issuer and algorithms

    @Test(arguments: [
        ([nil, "https://b", "https://c"], ExpectedIssuer.exact("https://b")),
        (["https://a", "https://b"], .exact("https://a")),
        ([nil, nil], .originOf("https://t.example/token")),
    ] as [([String?], ExpectedIssuer)])
    func firstIssuerKnown(candidates: [String?], expected: ExpectedIssuer) {
        #expect(ExpectedIssuer.first(candidates, else: "https://t.example/token") == expected)
    }

    @Test(arguments: [
        (nil, nil, JWSAlgorithm.asymmetric),
        ([JWSAlgorithm.ps256], ["RS256"], [.ps256]),
        ([.unsecured], nil, [.unsecured]),
        (nil, ["RS256", "HS256", "none", "ES256K", "XYZ"], [.rs256, .hs256]),
        (nil, [], []),
    ] as [([JWSAlgorithm]?, [String]?, Set<JWSAlgorithm>)])
    func idTokenAlgorithms(pinned: [JWSAlgorithm]?, advertised: [String]?, accepted: Set<JWSAlgorithm>) {
        #expect(AcceptedAlgorithms.idToken(pinned: pinned, advertised: advertised) == accepted)
    }

    @Test func jarmAndUserinfoNeverAcceptNone() {
        #expect(AcceptedAlgorithms.other(advertised: nil, idToken: [.unsecured]) == [])
        #expect(AcceptedAlgorithms.other(advertised: ["none", "ES256"], idToken: [.rs256]) == [.es256])
        #expect(AcceptedAlgorithms.other(advertised: nil, idToken: [.rs256, .ps256]) == [.rs256, .ps256])
    }
}
