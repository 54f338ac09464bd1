import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import CLI

/// `--refresh-token`: RFC 6749 §6 with the run's client authentication, no
/// walk; an id_token in the answer checked without nonce (OIDC Core §12.2).
/// Moved from EndToEndTests/RefreshGrantTests.
struct RefreshGrantRunTests {
    /// A refresh token from a real flow at this server.
    static func refreshToken(_ server: ScriptedServer, extra: [String] = [], env: [String: String] = [:], confidential: Bool = false) throws -> String {
        let ran = authcode((confidential ? server.confidential() : server.publicClient()) + extra, env: env, server: server)
        return try #require(expectToken(ran, from: server)["refresh_token"] as? String)
    }

    @Test func redeemsWithoutAWalk() throws {
        let server = ScriptedServer()
        let token = try Self.refreshToken(server)
        let before = server.requests(to: "/authorize").count
        let ran = authcode(server.endpoints + ["--client-id", "public-app", "--refresh-token", "@-"], stdin: token + "\n", server: server)
        let json = expectToken(ran, from: server)
        #expect(json["refresh_token"] as? String == token, "not rotated here")
        #expect(server.requests(to: "/authorize").count == before, "no authorization request")
        let refresh = try #require(server.requests(to: "/token").last)
        #expect(refresh.form == ["grant_type": "refresh_token", "refresh_token": token, "client_id": "public-app"])
    }

    @Test func confidentialClientAuthenticatesWithBasic() throws {
        let server = ScriptedServer()
        let token = try Self.refreshToken(server, env: ScriptedServer.demoSecretEnv, confidential: true)
        let ran = authcode(["--token-url", server.tokenURL, "--client-id", "demo-app"],
                           env: ScriptedServer.demoSecretEnv.merging(["AUTHCODE_REFRESH_TOKEN": token]) { $1 }, server: server)
        expectToken(ran, from: server)
        let refresh = try #require(server.requests(to: "/token").last)
        #expect(refresh.header("Authorization") == "Basic " + Data("demo-app:demo-secret".utf8).base64EncodedString())
        #expect(refresh.form["client_secret"] == nil)
        expectNoSecrets(ran, server: server, extra: [token])
    }

    @Test func scopeNarrowsAndIDTokenIsCheckedWithoutNonce() throws {
        let server = ScriptedServer()
        let token = try Self.refreshToken(server, extra: ["--scope", "openid profile"])
        let ran = authcode(server.endpoints + ["--client-id", "public-app", "--refresh-token", token, "--scope", "openid", "--expect-iss", server.origin, "-v"],
                           server: server)
        let json = expectToken(ran, from: server)
        #expect(json["id_token"] is String)
        #expect((json["id_token"] as? String).flatMap(claims)?["nonce"] == nil, "no nonce after a refresh")
        // Endpoints by hand, no --jwks: no keys, and -v says so; no nonce after a refresh (OIDC Core §12.2).
        #expect(ran.err.contains("* id_token: signature not checked: no keys (give --issuer or --jwks); iss; aud; exp; iat; sub\n"), "\(ran)")
        #expect(server.requests(to: "/token").last?.form["scope"] == "openid")
        expectNoSecrets(ran, server: server, extra: [token])
    }

    @Test func refusedIsExit7WithTheServersError() {
        let server = ScriptedServer()
        let ran = authcode(server.endpoints + ["--client-id", "public-app", "--refresh-token", "rt-not-a-real-one"], server: server)
        // A literal refresh token earns the hint every literal secret does (issue 31 item 8).
        expectFailure(ran, .tokenEndpoint, "authcode: hint: a refresh token on the command line shows in 'ps' and shell history; use '--refresh-token @FILE' or AUTHCODE_REFRESH_TOKEN\n"
                      + "authcode: error: the token endpoint refused: 400 error=invalid_grant: The refresh token is not valid (\(server.tokenURL))\n")
        #expect(ran.sent == ["POST /token"])
    }

    @Test func rotatedTokenIsSingleUse() throws {
        let server = ScriptedServer(behaviour: .init(rotatesRefreshTokens: true))
        let token = try Self.refreshToken(server)
        let args = server.endpoints + ["--client-id", "public-app", "--refresh-token", token]
        let second = try #require(expectToken(authcode(args, server: server), from: server)["refresh_token"] as? String)
        #expect(second != token)
        expectFailure(authcode(args, server: server), .tokenEndpoint, "authcode: hint: a refresh token on the command line shows in 'ps' and shell history; use '--refresh-token @FILE' or AUTHCODE_REFRESH_TOKEN\n"
                      + "authcode: error: the token endpoint refused: 400 error=invalid_grant: The refresh token is not valid (\(server.tokenURL))\n")
    }
}
