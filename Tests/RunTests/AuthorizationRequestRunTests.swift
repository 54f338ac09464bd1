import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import CLI

/// What the authorization and token requests carry (RFC 6749 §4.1.1,
/// §4.1.3; RFC 7636), read from the requests the scripted server received.
/// Moved from EndToEndTests/SuccessFlowTests and NoParameterTwiceTests.
struct AuthorizationRequestRunTests {
    @Test func responseModeIsSentAndFragmentHonoured() throws {
        let server = ScriptedServer()
        let ran = authcode(server.publicClient() + ["--response-mode", "fragment"], server: server)
        expectToken(ran, from: server)
        let authorize = try #require(server.requests(to: "/authorize").first)
        #expect(authorize.form["response_mode"] == "fragment", "\(authorize)")
        #expect(ran.sent == ["POST /authorize", "POST /token"], "the fragment was read from the Location, never fetched")
    }

    /// `-H` goes with every request of the walk, login and consent included.
    @Test func headerReachesEveryRequest() {
        let server = ScriptedServer(.loginAndConsent)
        let ran = authcode(server.publicClient() + ["-H", "X-Test: 1"] + ScriptedServer.alice, server: server)
        expectToken(ran, from: server)
        #expect(ran.sent == ["POST /authorize", "GET /login", "POST /login", "GET /consent", "POST /consent", "POST /token"])
        for request in ran.requests { #expect(request.header("X-Test") == "1", "-H missing on \(request.url)") }
    }

    @Test func getAuthorizationRequestCarriesTheQuery() throws {
        let server = ScriptedServer()
        let ran = authcode(server.publicClient() + ["--method", "GET", "--scope", "openid email"], server: server)
        expectToken(ran, from: server)
        let authorize = try #require(server.requests(to: "/authorize").first)
        #expect(authorize.method == .get)
        #expect(authorize.body == nil, "a GET has no body")
        let query = authorize.query
        #expect(query["response_type"] == "code")
        #expect(query["client_id"] == "public-app")
        #expect(query["redirect_uri"] == ScriptedServer.redirect)
        #expect(query["scope"] == "openid email")
        #expect(query["code_challenge_method"] == "S256")
        #expect((query["state"] ?? "").count >= 22, "128-bit state, base64url: \(query)")
        #expect((query["nonce"] ?? "").isEmpty == false, "nonce when scope has openid: \(query)")
    }

    @Test func postAuthorizationRequestIsTheDefault() throws {
        let server = ScriptedServer()
        let ran = authcode(server.publicClient() + ["--param", "prompt=login", "--param", "audience=api://x"], server: server)
        expectToken(ran, from: server)
        let authorize = try #require(server.requests(to: "/authorize").first)
        #expect(authorize.method == .post)
        #expect(authorize.header("Content-Type")?.hasPrefix("application/x-www-form-urlencoded") == true)
        #expect(authorize.form["prompt"] == "login" && authorize.form["audience"] == "api://x", "\(authorize)")
        #expect(authorize.form["nonce"] == nil, "no nonce without openid")
        #expect(URIReference(authorize.url)?.query == nil, "the parameters are in the body, not the URL")
    }

    @Test func pkcePlainSendsTheVerifierAsChallenge() throws {
        let server = ScriptedServer()
        let ran = authcode(server.publicClient() + ["--pkce", "plain"], server: server)
        expectToken(ran, from: server)
        let authorize = try #require(server.requests(to: "/authorize").first), token = try #require(server.requests(to: "/token").first)
        #expect(authorize.form["code_challenge_method"] == "plain")
        #expect(authorize.form["code_challenge"] != nil && authorize.form["code_challenge"] == token.form["code_verifier"])
    }

    @Test func pkceOffSendsNeitherChallengeNorVerifier() throws {
        let server = ScriptedServer()
        let ran = authcode(server.confidential() + ["--pkce", "off"], env: ScriptedServer.demoSecretEnv, server: server)
        expectToken(ran, from: server)
        let authorize = try #require(server.requests(to: "/authorize").first), token = try #require(server.requests(to: "/token").first)
        #expect(authorize.form["code_challenge"] == nil && authorize.form["code_challenge_method"] == nil && token.form["code_verifier"] == nil)
    }

    @Test func redirectUriIsSentByteForByteInBothRequests() throws {
        let server = ScriptedServer()
        let redirect = "com.example.app:/oauth2/cb?x=1&y=%2F"
        let ran = authcode(server.publicClient(redirect: redirect), server: server)
        expectToken(ran, from: server)
        #expect(server.requests(to: "/authorize").first?.form["redirect_uri"] == redirect)
        #expect(server.requests(to: "/token").first?.form["redirect_uri"] == redirect)
    }

    @Test func quietSuccessWritesNothingToStderr() {
        let server = ScriptedServer()
        let ran = authcode(server.confidential() + ["--client-secret", "demo-secret", "-q"], server: server)
        expectToken(ran, from: server)
        #expect(ran.err.isEmpty, "-q: not even the command-line-secret hint")
    }

    @Test func secretLookingHeaderIsRedactedInTheTrace() {
        let server = ScriptedServer()
        let ran = authcode(server.publicClient() + ["-H", "X-Api-Key: sekret-value-123", "-v"], server: server)
        expectToken(ran, from: server)
        #expect(server.requests(to: "/authorize").first?.header("X-Api-Key") == "sekret-value-123")
        #expect(ran.err.contains("> X-Api-Key: [redacted]\n"), "the trace shows the header name\n\(ran)")
        expectNoSecrets(ran, server: server, extra: ["sekret-value-123"])
    }

    /// Names that merely look like the ones authcode sets are fields like
    /// any other: accepted, and like every --form value kept for the forms
    /// of the walk, never sent in the authorization request (README "How the walk works", step 2).
    @Test func otherNamesStillWork() throws {
        let server = ScriptedServer()
        let ran = authcode(server.publicClient() + ["--form", "State=ok", "--form", "scope_hint=x", "--param", "prompt=login"], server: server)
        expectToken(ran, from: server)
        let authorize = try #require(server.requests(to: "/authorize").first)
        #expect(authorize.form["prompt"] == "login")
        #expect(authorize.form["State"] == nil && authorize.form["scope_hint"] == nil)
    }
}
