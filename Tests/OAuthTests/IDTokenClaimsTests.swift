import Testing
@testable import Core
@testable import HTTP
@testable import OAuth

struct IDTokenClaimsTests {
    static let now = 1_700_000_000.0

    /// An unsigned-looking JWT: base64url(header).base64url(payload).signature.
    static func jwt(_ payload: String, header: String = #"{"alg":"RS256","kid":"k1"}"#) -> String {
        Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8)) + ".c2lnbmF0dXJl"
    }

    static func claims(iss: String? = "https://idp.example", aud: String? = #""app""#, azp: String? = nil,
                       exp: Double? = now + 600, nonce: String? = "n-1") -> String {
        var members: [String] = []
        if let iss { members.append(#""iss":"\#(iss)""#) }
        if let aud { members.append(#""aud":\#(aud)"#) }
        if let azp { members.append(#""azp":"\#(azp)""#) }
        if let exp { members.append(#""exp":\#(Int(exp))"#) }
        if let nonce { members.append(#""nonce":"\#(nonce)""#) }
        members.append(#""sub":"alice""#)
        return "{" + members.joined(separator: ",") + "}"
    }

    static func verify(_ payload: String, issuer: String? = "https://idp.example", nonce: String? = "n-1") throws(Failure) {
        try IDTokenClaims(jwt: jwt(payload)).verify(issuer: issuer, clientID: "app", nonce: nonce, now: now)
    }

    @Test(arguments: [
        (claims(), "https://idp.example", "n-1"),
        (claims(), nil, "n-1"),
        (claims(iss: nil), nil, "n-1"),
        (claims(nonce: nil), "https://idp.example", nil),
        (claims(nonce: "whatever"), "https://idp.example", nil),
        (claims(aud: #"["app"]"#), "https://idp.example", "n-1"),
        (claims(aud: #"["app","api"]"#, azp: "app"), "https://idp.example", "n-1"),
        (claims(exp: now - 119), "https://idp.example", "n-1"),
        (claims(exp: now + 1), "https://idp.example", "n-1"),
        (#"{"iss":"https://idp.example","aud":"app","exp":1700000600.5,"nonce":"n-1"}"#, "https://idp.example", "n-1"),
        // Far-future finite numbers are valid times; iat is never read.
        (#"{"iss":"https://idp.example","aud":"app","exp":1e300,"iat":-1e999,"nonce":"n-1"}"#, "https://idp.example", "n-1"),
        (#"{"iss":"https://idp.example","aud":"app","exp":1180591620717411303424,"iat":"nan","nonce":"n-1"}"#, "https://idp.example", "n-1"),
    ] as [(String, String?, String?)])
    func valid(payload: String, issuer: String?, nonce: String?) throws {
        try Self.verify(payload, issuer: issuer, nonce: nonce)
    }

    static let invalid: [(String, Failure)] = [
        (claims(iss: "https://evil.example"), Failure(.securityCheck, "id_token iss is 'https://evil.example', expected 'https://idp.example'")),
        (claims(iss: "https://idp.example/"), Failure(.securityCheck, "id_token iss is 'https://idp.example/', expected 'https://idp.example'")),
        (claims(iss: nil), Failure(.securityCheck, "id_token iss is 'missing', expected 'https://idp.example'")),
        (claims(aud: #""other""#), Failure(.securityCheck, "id_token aud 'other' is not this client 'app'")),
        (claims(aud: #"["other","api"]"#), Failure(.securityCheck, "id_token aud does not contain this client 'app'")),
        (claims(aud: #"[]"#), Failure(.securityCheck, "id_token aud does not contain this client 'app'")),
        (claims(aud: #"["app","api"]"#), Failure(.securityCheck, "id_token has several audiences but azp is not this client 'app'")),
        (claims(aud: #"["app","api"]"#, azp: "api"), Failure(.securityCheck, "id_token has several audiences but azp is not this client 'app'")),
        (claims(aud: nil), Failure(.securityCheck, "id_token has no aud claim")),
        (claims(aud: "42"), Failure(.securityCheck, "id_token has no aud claim")),
        (claims(exp: nil), Failure(.securityCheck, "id_token has no exp claim")),
        (claims(exp: now - 121), Failure(.securityCheck, "id_token expired 121 s ago")),
        (claims(exp: now - 120), Failure(.securityCheck, "id_token expired 120 s ago")),
        (claims(exp: now - 86_400), Failure(.securityCheck, "id_token expired 86400 s ago")),
        // exp must be a finite JSON number (RFC 7519 §2); nothing may trap on it.
        (#"{"iss":"https://idp.example","aud":"app","exp":-1e999,"nonce":"n-1"}"#, Failure(.securityCheck, "id_token exp is not a finite JSON number")),
        (#"{"iss":"https://idp.example","aud":"app","exp":1e999,"nonce":"n-1"}"#, Failure(.securityCheck, "id_token exp is not a finite JSON number")),
        (#"{"iss":"https://idp.example","aud":"app","exp":"1700000600","nonce":"n-1"}"#, Failure(.securityCheck, "id_token exp is not a finite JSON number")),
        (#"{"iss":"https://idp.example","aud":"app","exp":"nan","nonce":"n-1"}"#, Failure(.securityCheck, "id_token exp is not a finite JSON number")),
        (#"{"iss":"https://idp.example","aud":"app","exp":[1],"nonce":"n-1"}"#, Failure(.securityCheck, "id_token exp is not a finite JSON number")),
        (#"{"iss":"https://idp.example","aud":"app","exp":null,"nonce":"n-1"}"#, Failure(.securityCheck, "id_token has no exp claim")),
        (#"{"iss":"https://idp.example","aud":"app","exp":-1e300,"nonce":"n-1"}"#, Failure(.securityCheck, "id_token expired more than 30 million years ago")),
        (#"{"iss":"https://idp.example","aud":"app","exp":-1180591620717411303424,"nonce":"n-1"}"#,
         Failure(.securityCheck, "id_token expired more than 30 million years ago")),
        (claims(nonce: "n-2"), Failure(.securityCheck, "id_token nonce does not match the one sent in the authorization request")),
        (claims(nonce: nil), Failure(.securityCheck, "id_token nonce does not match the one sent in the authorization request")),
    ]

    @Test(arguments: invalid)
    func rejected(payload: String, expected: Failure) {
        #expect(throws: expected) { try Self.verify(payload) }
    }

    static let malformed: [(String, Failure)] = [
        ("abc", Failure(.malformedResponse, "the id_token is not a JWT (expected 3 dot-separated parts)")),
        ("a.b", Failure(.malformedResponse, "the id_token is not a JWT (expected 3 dot-separated parts)")),
        ("a.b.c.d", Failure(.malformedResponse, "the id_token is not a JWT (expected 3 dot-separated parts)")),
        ("", Failure(.malformedResponse, "the id_token is not a JWT (expected 3 dot-separated parts)")),
        ("eyJhbGciOiJSU0EtT0FFUCJ9.a.b.c.d", Failure(.malformedResponse, "the id_token is encrypted (JWE); authcode cannot check its claims")),
        ("x.!!!.y", Failure(.malformedResponse, "the id_token's payload is not base64url JSON")),
        ("x.eyJhIjox.y", Failure(.malformedResponse, "the id_token's payload is not base64url JSON")),
        ("x." + Base64URL.encode(Array("[1]".utf8)) + ".y", Failure(.malformedResponse, "the id_token's payload is not base64url JSON")),
        ("x." + Base64URL.encode(Array("not json".utf8)) + ".y", Failure(.malformedResponse, "the id_token's payload is not base64url JSON")),
        ("x..y", Failure(.malformedResponse, "the id_token's payload is not base64url JSON")),
    ]

    @Test(arguments: malformed)
    func malformedTokens(jwt: String, expected: Failure) {
        #expect(throws: expected) { try IDTokenClaims(jwt: jwt) }
    }

    @Test func paddedAndStandardAlphabetPayloadsDecode() throws {
        let payload = #"{"iss":"https://idp.example","aud":"app","exp":1700000600,"nonce":"n-1","name":"Zoë ~?>"}"#
        let padded = Base64URL.encodeStandard(Array(payload.utf8))
        let claims = try IDTokenClaims(jwt: "h." + padded + ".s")
        #expect(claims.claims["name"]?.stringValue == "Zoë ~?>")
        try claims.verify(issuer: "https://idp.example", clientID: "app", nonce: "n-1", now: Self.now)
    }

    @Test func unsignedTokenIsStillDecoded() throws {
        let claims = try IDTokenClaims(jwt: String(Self.jwt(Self.claims(), header: #"{"alg":"none"}"#).dropLast(12)))
        #expect(claims.claims["sub"]?.stringValue == "alice")
    }

    @Test(arguments: [
        (#"{"access_token":"x"}"#, nil), (#"{"access_token":"x","id_token":null}"#, nil), (#"{"id_token":"a.b.c"}"#, "a.b.c"),
    ] as [(String, String?)])
    func idTokenMember(json: String, expected: String?) throws {
        #expect(try IDTokenClaims.jwt(in: JSONValue.parse(Array(json.utf8))!) == expected)
    }

    @Test(arguments: [#"{"id_token":42}"#, #"{"id_token":{"a":1}}"#, #"{"id_token":["a.b.c"]}"#, #"{"id_token":true}"#])
    func idTokenMemberOfAnotherType(json: String) {
        #expect(throws: Failure(.malformedResponse, "the id_token is neither a string nor null")) {
            try IDTokenClaims.jwt(in: JSONValue.parse(Array(json.utf8))!)
        }
    }
}
