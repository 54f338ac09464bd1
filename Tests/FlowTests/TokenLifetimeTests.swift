import Testing
@testable import Core
@testable import HTTP
@testable import OAuth
@testable import Flow

/// Expiry from untrusted numbers never traps, and only sane times count.
struct TokenLifetimeTests {
    static func token(_ body: String) throws -> TokenResponse {
        try #require(TokenResponse(stored: Array(body.utf8)))
    }

    static func jwt(_ payload: String) -> String {
        "eyJhbGciOiJub25lIn0." + Base64URL.encode(Array(payload.utf8)) + ".sig"
    }

    @Test(arguments: [
        (#"{"access_token":"a","expires_in":3600}"#, 1_000_003_600 as Double?),
        (#"{"access_token":"a","expires_in":"3600"}"#, 1_000_003_600),
        (#"{"access_token":"a","expires_in":0}"#, 1_000_000_000),
        (#"{"access_token":"a","expires_in":-1}"#, nil),
        (#"{"access_token":"a","expires_in":1e999}"#, nil),
        (#"{"access_token":"a","expires_in":-1e999}"#, nil),
        (#"{"access_token":"a","expires_in":1e300}"#, nil),
        (#"{"access_token":"a","expires_in":1180591620717411303424}"#, nil),
        (#"{"access_token":"a","expires_in":"nan"}"#, nil),
        (#"{"access_token":"a","expires_in":"-5"}"#, nil),
        (#"{"access_token":"a","expires_in":null}"#, nil),
        (#"{"access_token":"a"}"#, nil),
    ])
    func accessTokenExpiry(body: String, expected: Double?) throws {
        #expect(TokenLifetime.accessTokenExpiry(try Self.token(body), receivedAt: 1_000_000_000) == expected)
    }

    @Test(arguments: [
        (#"{"exp":1700000000}"#, 1_700_000_000 as Double?),
        (#"{"exp":"1700000000"}"#, nil),
        (#"{"exp":1e999}"#, nil),
        (#"{"exp":-1e999}"#, nil),
        (#"{"exp":null}"#, nil),
        ("[1,2]", nil),
        ("not json", nil),
    ])
    func jwtExpiry(payload: String, expected: Double?) {
        #expect(TokenLifetime.jwtExpiry(Self.jwt(payload)) == expected)
        let body = #"{"access_token":"\#(Self.jwt(payload))"}"#
        #expect(TokenLifetime.accessTokenExpiry(TokenResponse(stored: Array(body.utf8))!, receivedAt: 5) == expected)
    }

    @Test func mergeKeepsWhatTheRefreshDidNotSend() throws {
        let old = try Self.token(#"{"access_token":"a1","refresh_token":"r1","id_token":"i1","expires_in":60}"#)
        let answer = try Self.token(#"{"access_token":"a2","expires_in":3600, "scope":"x"}"#)
        let merged = TokenMerge.merge(answer: answer, into: old)
        #expect(String(decoding: merged.body, as: UTF8.self) == #"{"access_token":"a2","expires_in":3600, "scope":"x","id_token":"i1","refresh_token":"r1"}"#)
        let rotated = try Self.token(#"{"access_token":"a3","refresh_token":"r2"}"#)
        #expect(TokenMerge.merge(answer: rotated, into: old).refreshToken == "r2")
    }
}
