import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import JOSE
@testable import OAuth
@testable import Flow

/// Back-channel requests of the modern client profile (Flow/BackChannel.swift)
/// over a transport in memory: a DPoP nonce challenge is answered once,
/// through the ordinary send path, with a new proof and a new assertion;
/// a nonce a server gave is used from then on. Signatures are checked end
/// to end by the fixture and Glewlwyd.
struct BackChannelTests {
    static let nonceChallenge = HTTPResponse(status: 400, headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("DPoP-Nonce", "n-1")],
                                             body: Array(#"{"error":"use_dpop_nonce","error_description":"nonce required"}"#.utf8))
    static let bound = Server.tokenAnswer(#"{"access_token":"at-1","token_type":"DPoP","expires_in":60}"#)

    static func settings(_ change: (inout FlowSettings) -> Void = { _ in }) throws -> FlowSettings {
        let key = try SigningKey.generate()
        return Server.settings {
            $0.request.refreshToken = "rt-secret-1"
            $0.client.authMethod = .privateKeyJWT
            $0.profile.clientKey = LoadedKey(path: "memory", key: key)
            $0.profile.dpop = .fresh
            change(&$0)
        }
    }

    static func run(_ settings: FlowSettings, _ transport: ScriptedTransport, verbose: Bool = false) -> (Result<FlowResult, FlowError>, CapturingConsole) {
        var settings = settings
        if verbose { settings.output.verbosity = .verbose }
        let console = CapturingConsole()
        let flow = TokenFlow(settings: settings, console: console, transport: transport, wording: TestWording())
        do throws(FlowError) {
            return (.success(try flow.run()), console)
        } catch {
            return (.failure(error), console)
        }
    }

    static func claims(_ jwt: String?) -> JSONValue {
        ProfileClaims.of(jwt ?? "")
    }

    @Test func aNonceChallengeIsAnsweredOnceWithANewProofAndAssertion() throws {
        let transport = ScriptedTransport { request in
            request.headers.first(named: "DPoP").map { Self.claims($0)["nonce"] == .string("n-1") } == true ? Self.bound : Self.nonceChallenge
        }
        let (result, console) = Self.run(try Self.settings(), transport, verbose: true)
        guard case .success(.token(let token)) = result else { Issue.record("\(result)"); return }
        #expect(token.response.accessToken == "at-1")
        #expect(transport.requests.count == 2)
        let proofs = transport.requests.map { Self.claims($0.headers.first(named: "DPoP")) }
        let assertions = transport.requests.map { Self.claims(Server.fields($0)["client_assertion"]) }
        #expect(proofs[0]["nonce"] == nil && proofs[1]["nonce"] == .string("n-1"))
        #expect(proofs[0]["jti"] != proofs[1]["jti"], "a new proof")
        #expect(assertions[0]["jti"] != nil && assertions[0]["jti"] != assertions[1]["jti"], "a new assertion")
        #expect(proofs.allSatisfy { $0["htm"] == .string("POST") && $0["htu"] == .string(Server.token) })
        #expect(console.err.contains("* refresh token request, again with the server's DPoP nonce\n"), "\(console.err)")
        for request in transport.requests {
            #expect(!console.err.contains(request.headers.first(named: "DPoP") ?? "none"), "proofs are redacted in -v")
            #expect(!console.err.contains(Server.fields(request)["client_assertion"] ?? "none"), "assertions are redacted in -v")
        }
    }

    /// A server that asks again gets no third request: its answer is the error.
    @Test func onlyOneRetry() throws {
        let transport = ScriptedTransport { _ in Self.nonceChallenge }
        let (result, _) = Self.run(try Self.settings(), transport)
        guard case .failure(let failure) = result else { Issue.record("\(result)"); return }
        #expect(transport.requests.count == 2)
        #expect(failure == .oauth(.tokenRefused(status: 400, OAuthErrorObject(error: "use_dpop_nonce", description: "nonce required"), at: Server.token)))
    }

    /// Without DPoP a use_dpop_nonce answer is an ordinary refusal: nothing is sent again.
    @Test func noRetryWithoutDPoP() throws {
        let transport = ScriptedTransport { _ in Self.nonceChallenge }
        let (result, _) = Self.run(try Self.settings { $0.profile.dpop = nil }, transport)
        guard case .failure(let failure) = result else { Issue.record("\(result)"); return }
        #expect(transport.requests.count == 1 && transport.requests[0].headers.first(named: "DPoP") == nil)
        #expect(failure == .oauth(.tokenRefused(status: 400, OAuthErrorObject(error: "use_dpop_nonce", description: "nonce required"), at: Server.token)))
    }

    /// A nonce offered on a success is the one the next proof to that origin carries.
    @Test func aNonceFromASuccessIsUsedNext() throws {
        var settings = try Self.settings()
        settings.client.authMethod = .none
        settings.profile.clientKey = nil
        let client = HTTPClient(transport: ScriptedTransport { request in
            var answer = Self.bound
            answer.headers.append(HTTPHeader("DPoP-Nonce", request.url.hasSuffix("/first") ? "n-first" : "n-later"))
            return answer
        }, cookies: CookieJar(), extraHeaders: [], policy: SecurityPolicy(allowHTTP: false, connectTo: []),
           trace: Trace(enabled: false, redactor: Redactor(), console: CapturingConsole(), names: .standard), now: { 0 })
        let profile = ClientProfile(client: settings.client, profile: settings.profile, issuer: settings.server.expectedIssuer, redactor: Redactor(), now: { 1000 })
        var nonces: [JSONValue?] = []
        for path in ["/first", "/second", "/third"] {
            let response = try profile.send("call", through: client) { HTTPRequest(method: .post, url: "https://as.example" + path) }
            #expect(response.status == 200)
        }
        let other = try profile.proof(method: "GET", url: "https://rs.example/api", accessToken: nil)
        nonces = try [profile.proof(method: "GET", url: "https://as.example/x", accessToken: nil), other].map { Self.claims($0)["nonce"] }
        #expect(nonces == [.string("n-later"), nil], "by origin: another origin gets none")
    }

    /// The userinfo hook: a DPoP-bound token goes as `DPoP <token>` with a
    /// proof carrying `ath`; a Bearer token as `Bearer <token>`, no proof.
    @Test(arguments: [("DPoP", "DPoP at-1", true), ("dpop", "DPoP at-1", true), ("bearer", "Bearer at-1", false), (nil, "Bearer at-1", false)]
          as [(String?, String, Bool)])
    func protectedResource(tokenType: String?, authorization: String, proof: Bool) throws {
        let transport = ScriptedTransport { _ in HTTPResponse(status: 200) }
        let client = HTTPClient(transport: transport, cookies: CookieJar(), extraHeaders: [], policy: SecurityPolicy(allowHTTP: false, connectTo: []),
                                trace: Trace(enabled: false, redactor: Redactor(), console: CapturingConsole(), names: .standard), now: { 0 })
        let settings = try Self.settings()
        let profile = ClientProfile(client: settings.client, profile: settings.profile, issuer: settings.server.expectedIssuer, redactor: Redactor(), now: { 1000 })
        _ = try profile.sendToResource(HTTPRequest(method: .get, url: "https://as.example/userinfo?x=1"), accessToken: "at-1", tokenType: tokenType,
                                       through: client, purpose: "userinfo")
        let sent = transport.requests[0]
        #expect(sent.headers.first(named: "Authorization") == authorization)
        #expect((sent.headers.first(named: "DPoP") != nil) == proof)
        if proof {
            let claims = Self.claims(sent.headers.first(named: "DPoP"))
            #expect(claims["ath"] == .string(DPoPProver.ath("at-1")) && claims["htm"] == .string("GET")
                    && claims["htu"] == .string("https://as.example/userinfo"))
        }
    }
}

/// The claims of a compact JWS, not verified (tests read what was sent).
enum ProfileClaims {
    static func of(_ jwt: String) -> JSONValue {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return .null }
        return Base64URL.decode(parts[1]).flatMap(JSONValue.parse) ?? .null
    }
}
