import Core
import HTTP
import OAuth
import Walk

/// The authorization-code grant, in the order of RFC 6749 §4.1: find the
/// endpoints, send the authorization request (4.1.1), walk to the answer and
/// check it (4.1.2), redeem the code (4.1.3) and check the tokens (4.1.4,
/// OIDC Core §3.1.3.7). Returns the result; the caller formats it.
package struct AuthorizationCodeFlow {
    let server: ServerSettings
    let clientSettings: ClientSettings
    let request: RequestSettings
    let walk: WalkSettings
    let verification: VerificationSettings
    let output: OutputSettings
    /// The `--form` values to fill in (TokenFlow.form).
    let form: [NameValue]
    let client: HTTPClient
    let now: () -> Double
    let random: (Int) -> [UInt8]
    /// Where `authcode: note:` lines go (not with `-q`); nil: nowhere.
    let notes: Console?
    /// Assertions, request objects, DPoP proofs (ClientProfile.swift).
    let profile: ClientProfile
    /// How long a passkey file's lock is waited for (`--timeout`, as for
    /// the cache's lock).
    let lockTimeout: Double
    /// The CLI's words for the fallback's note and trace line.
    let wording: any FlowWording

    /// Takes the slices it reads: not the cache's or the connection's.
    package init(settings: FlowSettings, form: [NameValue], client: HTTPClient, wording: any FlowWording, notes: Console? = nil,
                 now: @escaping () -> Double = SystemClock.now,
                 random: @escaping (Int) -> [UInt8] = Randomness.bytes, profile: ClientProfile? = nil) {
        self.wording = wording
        server = settings.server
        clientSettings = settings.client
        request = settings.request
        walk = settings.walk
        verification = settings.verification
        output = settings.output
        self.form = form
        self.client = client
        self.notes = notes
        lockTimeout = settings.connection.transport.timeout
        self.now = now
        self.random = random
        self.profile = profile ?? ClientProfile(client: settings.client, profile: settings.profile, issuer: settings.server.expectedIssuer,
                                                redactor: client.trace.redactor, now: now, random: random)
    }

    package func run(at endpoints: ServerEndpoints) throws(FlowError) -> FlowResult {
        guard let authorizeURL = endpoints.authorize else {
            throw .authorizationEndpointUnknown(issuer: server.issuer)
        }
        let metadata = endpoints.metadata
        let tokenURL = endpoints.token

        // A JARM answer needs keys: without them the login would be wasted.
        try JARMCheck.requireKeys(request.responseMode, endpoints)

        // 1. Steps before the authorization request (a JSON login API, say).
        for (index, step) in walk.steps.enumerated() {
            try runStep(step, number: index + 1)
        }

        // 2. The authorization request (RFC 6749 §4.1.1), with fresh state,
        //    nonce and PKCE (RFC 7636 §4.1-4.3), and
        // 3. the walk to the redirect_uri, which is never fetched; a POST
        //    the server cannot take is sent again as GET (MethodFallback.swift).
        let (authorization, answer) = try authorizeAndWalk(from: authorizeURL, at: endpoints)

        // 4. The authorization response (§4.1.2) and its checks.
        let (code, response) = try verify(answer, for: authorization, metadata: metadata, authorizeURL: authorizeURL, endpoints: endpoints)
        let verifier = request.pkce == .off ? nil : authorization.pkce.verifier
        if output.print == .code {
            return .code(UnredeemedCode(code: code, state: response.state, iss: response.iss, verifier: verifier,
                                        redirectURI: clientSettings.redirectURI))
        }

        // 5. The access token request (§4.1.3) and response (§4.1.4), then
        //    the id_token (OIDC Core §3.1.3.7), from the issuer known so far.
        let idToken = IDTokenCheck(keys: endpoints.keys, metadata: metadata,
                                   issuer: IDTokenCheck.issuer(server, metadata: metadata, answerIss: response.iss, tokenURL: tokenURL),
                                   nonce: authorization.nonce, stored: nil, rules: verification, client: clientSettings,
                                   requiresIDToken: request.asksForOpenID, maxAge: request.maxAge)
        let token = try redeem(code, verifier: verifier, at: tokenURL, idToken: idToken)
        return .token(MintedToken(response: token, receivedAt: now(), source: .flow))
    }

    /// Reads the answer and checks it; returns the code only if it may be redeemed.
    func verify(_ answer: AuthorizationAnswer, for authorization: AuthorizationRequest,
                metadata: ServerMetadata?, authorizeURL: String? = nil, endpoints: ServerEndpoints? = nil) throws(FlowError) -> (code: String, response: AuthorizationResponse) {
        let response: AuthorizationResponse
        let place: String
        if let mode = request.responseMode, mode.isJARM, let endpoints, let authorizeURL {
            // JARM: the answer is read from its verified JWT (Verification/JARMCheck.swift).
            let jarm = try JARMCheck(server: server, clientSettings: clientSettings, verification: verification, client: client,
                                     endpoints: endpoints, now: now)
                .response(in: answer, mode: mode, authorizeURL: authorizeURL)
            (response, place) = (jarm.response, jarm.place)
        } else {
            do throws(OAuthError) {
                switch answer {
                case .redirect(let location):
                    place = location.withoutQuery
                    response = try AuthorizationResponse(redirect: location, where: place)
                case .formPost(let fields, let page):
                    place = page
                    response = try AuthorizationResponse(fields: fields.map { ($0.name, $0.value) }, where: page)
                }
            } catch {
                throw .oauth(error)
            }
        }
        client.trace.redactor.remember(response.code)
        let checks = ResponseChecks(expectedState: authorization.state, expectedIssuer: server.expectedIssuer,
                                    issRequired: verification.requireIss || metadata?.issParameterSupported ?? false, authorizationEndpoint: authorizeURL)
        let code: String
        do {
            code = try checks.verify(response, at: place)
        } catch {
            throw .oauth(error)
        }
        client.trace.info("authorization response checked: state matches" + (response.iss.map { ", iss '\($0)'" } ?? ""))
        return (code, response)
    }

    func redeem(_ code: String, verifier: String?, at tokenURL: String, idToken: IDTokenCheck) throws(FlowError) -> TokenResponse {
        try TokenEndpoint(client: client, now: now, profile: profile)
            .exchange(.authorizationCode(code: code, redirectURI: clientSettings.redirectURI, verifier: verifier), at: tokenURL,
                      purpose: "token request", idToken: idToken, spent: .code)
    }

    func runStep(_ step: Step, number: Int) throws(FlowError) {
        var request = HTTPRequest(method: step.method, url: step.url)
        if let body = step.body {
            request.headers.append(HTTPHeader("Content-Type", step.isJSON ? "application/json" : "application/x-www-form-urlencoded"))
            request.body = Array(body.utf8)
        }
        let response: HTTPResponse
        do {
            response = try client.send(request, purpose: "step \(number): \(step.method) \(Walker.place(step.url))")
        } catch {
            throw .http(error)
        }
        guard response.isSuccess || response.isRedirect else {
            throw .stepFailed(number: number, method: step.method, status: response.status, .page(response), at: Walker.place(step.url))
        }
    }
}
