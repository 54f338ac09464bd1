import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import CLI

/// `--issuer` discovery (OIDC Discovery §4, RFC 8414 §3): which URLs are
/// tried, what a wrong or missing document says, and checks on the
/// metadata before the flow's first request. Moved from EndToEndTests'
/// HintDirectionTests, SuccessFlowTests, UsageTests and AnswerDeliveryTests.
struct DiscoveryRunTests {
    @Test func issuerWithATrailingSlashNamesTheServersSpelling() {
        let server = ScriptedServer()
        server.serveDiscovery()
        let issuer = server.issuer
        let ran = authcode(["--issuer", issuer + "/", "--client-id", "public-app", "--redirect-uri", ScriptedServer.redirect], server: server)
        expectFailure(ran, .securityCheck, "authcode: error: the discovery document is for issuer '\(issuer)', not '\(issuer)/' (\(issuer)/.well-known/openid-configuration)\n"
                      + "The two differ only by a trailing slash; pass --issuer exactly as the server names itself: --issuer '\(issuer)'.\n")
        #expect(server.requests(to: "/authorize").isEmpty)
    }

    @Test func otherIssuerHasNoSlashHint() {
        let server = ScriptedServer()
        server.serveDiscovery(claimedIssuer: "https://other.example")
        let issuer = server.issuer
        let ran = authcode(server.discovered(), server: server)
        expectFailure(ran, .securityCheck,
                      "authcode: error: the discovery document is for issuer 'https://other.example', not '\(issuer)' (\(issuer)/.well-known/openid-configuration)\n")
        #expect(ran.sent == ["GET /tenant/.well-known/openid-configuration"], "no authorization request")
    }

    @Test func noDiscoveryDocumentIsExit8WithBothWaysOut() {
        let server = ScriptedServer()
        let ran = authcode(server.discovered(), server: server)
        expectFailure(ran, .malformedResponse, "authcode: error: no discovery document for this issuer (3 well-known URLs tried, the last answered 404) (\(server.issuer))\n"
                      + "Check --issuer (-v shows the URLs tried), or give --authorize-url and --token-url instead.\n")
        #expect(ran.requests.count == 3 && ran.requests.allSatisfy { $0.method == .get })
    }

    @Test func rfc8414DiscoveryUsesTheRootInsertedWellKnownPath() {
        let server = ScriptedServer()
        server.serveDiscovery(oidc: false)
        let ran = authcode(server.discovered(), server: server)
        expectToken(ran, from: server)
        let paths = ran.requests.map(\.path)
        #expect(paths.first == "/tenant/.well-known/openid-configuration", "OIDC first: \(paths)")
        #expect(paths.contains("/.well-known/oauth-authorization-server/tenant"), "RFC 8414 §3.1: \(paths)")
    }

    /// The metadata lists only `plain`: exit 2 before the authorization
    /// request, with a hint naming `--pkce plain` (the contract is silent
    /// on this case).
    @Test func discoveryWithoutS256() {
        let server = ScriptedServer()
        server.serveDiscovery(methods: ["plain"])
        let ran = authcode(server.discovered(), server: server)
        expectFailure(ran, .usage, "authcode: error: the server's metadata does not list PKCE method S256 (it lists: plain) (\(server.issuer))\n"
                      + "Pass --pkce plain if that is what the server expects.\n")
        #expect(server.requests(to: "/authorize").isEmpty, "no authorization request")
    }

    /// --pkce S256 against metadata listing only plain: the only request was discovery.
    @Test func metadataWithoutThePKCEMethodStopsBeforeTheFlow() {
        let server = ScriptedServer()
        server.serveDiscovery(methods: ["plain"])
        let ran = authcode(server.discovered(), server: server)
        expectFailure(ran, .usage, "authcode: error: the server's metadata does not list PKCE method S256 (it lists: plain) (\(server.issuer))\n"
                      + "Pass --pkce plain if that is what the server expects.\n")
        #expect(ran.sent == ["GET /tenant/.well-known/openid-configuration"])
    }

    /// A discovered endpoint equal to the redirect_uri is never fetched (exit 5, before the flow's first request).
    @Test func discoveredEndpointThatIsTheRedirectURI() {
        let server = ScriptedServer()
        server.serveDiscovery()
        let ran = authcode(server.discovered(redirect: server.tokenURL), server: server)
        expectFailure(ran, .securityCheck, "authcode: error: the token endpoint is the redirect_uri, which authcode never fetches (\(server.tokenURL))\n"
                      + "Check --redirect-uri and the endpoints (flags or the issuer's metadata).\n")
        #expect(ran.sent == ["GET /tenant/.well-known/openid-configuration"])
    }
}
