import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import CLI

/// The walk's decisions on scripted answers (ARCHITECTURE.md "The walk"):
/// redirects of every kind, delivery modes, refresh pages, chains, and the
/// redirect_uri recognised however it is spelled — and never fetched.
/// Moved from EndToEndTests' SuccessFlowTests, RefreshTests,
/// WalkAndTokenFailureTests and AnswerDeliveryTests.
struct WalkDecisionRunTests {
    static let local = "http://127.0.0.1:8080"

    /// The authorization endpoint answers through `hops` more redirects of
    /// `status`, each a relative Location, before the code.
    static func chain(_ server: ScriptedServer, hops: Int, status: Int = 302) {
        server.on("/authorize") { exchange, server in
            guard let pending = server.validate(exchange) else { return server.refusal }
            return .redirect("hop1?txn=\(server.park(pending))", status: status)
        }
        for n in 1...max(1, hops) {
            server.on("/hop\(n)") { exchange, server in
                guard let pending = server.parked(exchange) else { return ScriptedServer.unknownTransaction }
                let txn = pending.txn
                // A 307 keeps method and body: the authorization request's form again.
                if status == 307, exchange.method != "POST" || exchange.form["client_id"] == nil {
                    return .html(Page.message("Error", "307 did not keep method and body."), status: 400)
                }
                return n < hops ? .redirect("hop\(n + 1)?txn=\(txn)", status: status) : server.answerCode(pending, user: "alice")
            }
        }
    }

    /// Answers with the code at once, but as `status` and with `headers`.
    static func answering(_ server: ScriptedServer, status: Int = 302, headers: [HTTPHeader] = [],
                          location: (@Sendable (String) -> String)? = nil) {
        server.on("/authorize") { exchange, server in
            guard let pending = server.validate(exchange) else { return server.refusal }
            var response = server.answerCode(pending, user: "alice", status: status)
            response.headers += headers
            if let location, let index = response.headers.firstIndex(where: { $0.name == "Location" }) {
                response.headers[index].value = location(response.headers[index].value)
            }
            return response
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        var origin = "https://as.example"
        /// The redirect_uri, from the server's origin (nil: ScriptedServer.redirect).
        var redirect: (@Sendable (ScriptedServer) -> String)?
        var extra: [String] = []
        var discovery = false
        var setUp: @Sendable (ScriptedServer) -> Void = { _ in }
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "direct"),
        Case(name: "301", setUp: { answering($0, status: 301) }),
        Case(name: "303", setUp: { answering($0, status: 303) }),
        Case(name: "307", setUp: { answering($0, status: 307) }),
        Case(name: "308", setUp: { answering($0, status: 308) }),
        Case(name: "relative Location to a redirect_uri on the server", redirect: { $0.url("/cb") },
             setUp: { answering($0, location: { String($0.dropFirst("https://as.example".count)) }) }),
        Case(name: "relative Location with dot segments", redirect: { $0.url("/cb") },
             setUp: { answering($0, location: { "./x/.." + $0.dropFirst("https://as.example".count) }) }),
        Case(name: "relative, redirect_uri scheme in upper case", origin: local, redirect: { _ in "HTTP://127.0.0.1:8080/cb" },
             setUp: { answering($0, location: { String($0.dropFirst("HTTP://127.0.0.1:8080".count)) }) }),
        Case(name: "307 to a redirect_uri on the server", redirect: { $0.url("/cb") }, setUp: { answering($0, status: 307) }),
        Case(name: "form_post to a redirect_uri on the server", redirect: { $0.url("/cb") }, extra: ["--response-mode", "form_post"]),
        Case(name: "fragment to a redirect_uri on the server", redirect: { $0.url("/cb") }, extra: ["--response-mode", "fragment"]),
        Case(name: "redirect_uri with a query", redirect: { _ in "http://127.0.0.1:8765/callback?app=1" }),
        Case(name: "form_post", extra: ["--response-mode", "form_post"]),
        Case(name: "iss", extra: ["--expect-iss", "https://as.example"], setUp: { $0.behaviour.withLock { $0.iss = "https://as.example" } }),
        Case(name: "chain", setUp: { chain($0, hops: 2) }),
        Case(name: "chain of 307", setUp: { chain($0, hops: 1, status: 307) }),
        Case(name: "long chain within the default", setUp: { chain($0, hops: 15) }),
        Case(name: "longer chain within --max-hops 30", extra: ["--max-hops", "30"], setUp: { chain($0, hops: 25) }),
        Case(name: "cookie flood", setUp: { answering($0, headers: (0..<200).map { HTTPHeader("Set-Cookie", "c\($0)=v\($0); Path=/") }) }),
        Case(name: "discovery", discovery: true, setUp: { $0.serveDiscovery() }),
        Case(name: "discovery, RFC 8414 only", discovery: true, setUp: { $0.serveDiscovery(oidc: false) }),
        Case(name: "discovery without S256, --pkce plain", extra: ["--pkce", "plain"], discovery: true, setUp: { $0.serveDiscovery(methods: ["plain"]) }),
        // aud [client, "other"] with azp the client: "other" must be trusted by name (OIDC Core §3.1.3.7 item 3).
        Case(name: "id_token aud array with azp, --trust-audience", extra: ["--scope", "openid", "--expect-iss", "https://as.example", "--trust-audience", "other"],
             setUp: { $0.behaviour.withLock { $0.idTokenClaims = { _ in ["aud": #"["public-app","other"]"#, "azp": #""public-app""#] } } }),
    ]

    @Test(arguments: cases)
    func reachesAToken(_ c: Case) {
        let server = ScriptedServer(origin: c.origin)
        c.setUp(server)
        let redirect = c.redirect?(server) ?? ScriptedServer.redirect
        let arguments = (c.discovery ? server.discovered(redirect: redirect) : server.publicClient(redirect: redirect)) + c.extra
        let ran = authcode(arguments, server: server)
        expectToken(ran, from: server)
        #expect(ran.err.isEmpty, "\(ran)")
        #expect(!ran.requests.contains { $0.path == "/cb" }, "the redirect_uri must never be fetched")
        #expect(server.requests(to: "/token").count == 1, "one token request")
        expectNoSecrets(ran, server: server)
    }

    @Test func interstitialPageIsFollowed() {
        let server = ScriptedServer()
        server.on("/authorize") { exchange, server in
            guard let pending = server.validate(exchange) else { return server.refusal }
            return .html("<!DOCTYPE html><html><head><title>Redirecting</title>"
                + "<META HTTP-EQUIV='Refresh' CONTENT='0; URL=continue?txn=\(server.park(pending))&amp;step=1'>"
                + "</head><body><p>Redirecting&hellip;</p></body></html>")
        }
        server.on("/continue") { exchange, server in
            guard exchange.query["step"] == "1", let pending = server.parked(exchange) else { return ScriptedServer.unknownTransaction }
            return server.answerCode(pending, user: "alice")
        }
        let ran = authcode(server.publicClient() + ["-v"], server: server)
        expectToken(ran, from: server)
        #expect(ran.err.contains("following the page's refresh"), "\(ran)")
        #expect(ran.sent == ["POST /authorize", "GET /continue", "POST /token"])
    }

    @Test func answerByRefreshIsNotFetched() {
        let server = ScriptedServer()
        server.on("/authorize") { exchange, server in
            guard let pending = server.validate(exchange), let location = server.answerCode(pending, user: "alice").headers.first(named: "Location") else {
                return server.refusal
            }
            return .html(#"<html><head><meta http-equiv="refresh" content="0;url=\#(Page.escape(location))"></head></html>"#)
        }
        let ran = authcode(server.publicClient(redirect: server.url("/cb")), server: server)
        expectToken(ran, from: server)
        #expect(ran.sent == ["POST /authorize", "POST /token"], "the redirect_uri must never be fetched")
        expectNoSecrets(ran, server: server)
    }

    @Test func loopIsDetectedBeforeTheHopLimit() {
        let server = ScriptedServer()
        server.on("/authorize") { _, _ in .redirect("a") }
        server.on("/a") { _, _ in .redirect("a") }
        let ran = authcode(server.publicClient() + ["--max-hops", "50"], server: server)
        #expect(ran.exit == .noAuthorizationResponse && ran.out.isEmpty, "\(ran)")
        #expect(ran.errorLine == "authcode: error: redirect loop: the same GET came round again with the same cookies (\(server.url("/a")))", "\(ran)")
        // Twice: the POST's walk ends at its loop, then the GET fallback's
        // (Flow/MethodFallback.swift) at its own; the repeat is never sent.
        #expect(ran.sent == ["POST /authorize", "GET /a", "GET /authorize", "GET /a"], "the second visit of a URL ends it")
    }

    /// code + our state carried somewhere that is not the redirect_uri: exit 5, never fetched.
    @Test(arguments: ["a meta refresh", "a Refresh header", "a form on the page"])
    func answerElsewhereIsNeverFetched(via: String) {
        let server = ScriptedServer()
        server.on("/authorize") { exchange, server in
            guard let pending = server.validate(exchange) else { return server.refusal }
            var elsewhere = pending
            elsewhere.redirectURI = server.url("/elsewhere")
            let location = server.answerCode(elsewhere, user: "alice").headers.first(named: "Location") ?? ""
            switch via {
            case "a meta refresh":
                return .html(#"<html><head><meta http-equiv="refresh" content="0;url=\#(Page.escape(location))"></head><body><p>Redirecting&hellip;</p></body></html>"#)
            case "a Refresh header":
                return .html("<html><body><p>Redirecting&hellip;</p></body></html>", headers: [HTTPHeader("Refresh", "0; url=\(location)")])
            default:
                elsewhere.responseMode = "form_post"
                return server.answerCode(elsewhere, user: "alice")
            }
        }
        let ran = authcode(server.publicClient(), server: server)
        expectFailure(ran, .securityCheck, "authcode: error: \(via) would send the authorization response to \(server.url("/elsewhere")), which is not the redirect_uri;"
                      + " not fetched (\(server.authorizeURL))\n"
                      + "Check --redirect-uri against the client's registration (scheme, host, port and path must match).\n")
        #expect(ran.sent == ["POST /authorize"], "neither elsewhere nor the token endpoint")
    }

    /// RFC 3986 §6.2.2-6.2.3: a respelled redirect_uri is still the redirect_uri.
    @Test(arguments: [
        ("scheme-upper", "http://127.0.0.1:8080/cb", "HTTP://127.0.0.1:8080/cb"),
        ("host-upper", "http://localhost:8080/cb", "http://LOCALHOST:8080/cb"),
        ("default-port", "http://127.0.0.1/cb", "http://127.0.0.1:80/cb"),
        ("percent-encoded", "http://127.0.0.1:8080/cb", "http://127.0.0.1:8080/%63b"),
        ("dot-segments", "http://127.0.0.1:8080/cb", "http://127.0.0.1:8080/./cb"),
        ("all", "http://localhost/cb", "HTTP://LOCALHOST:80/./%63b"),
    ])
    func normalisedRedirectURIIsRecognised(variant: String, redirect: String, spelled: String) {
        let server = ScriptedServer(origin: Self.local)
        Self.answering(server, location: { spelled + $0.dropFirst(redirect.count) })
        let ran = authcode(server.publicClient(redirect: redirect), server: server)
        expectToken(ran, from: server)
        #expect(ran.sent == ["POST /authorize", "POST /token"], "the respelled redirect_uri is never fetched")
        #expect(server.requests(to: "/authorize").first?.form["redirect_uri"] == redirect, "sent as given")
    }
}
