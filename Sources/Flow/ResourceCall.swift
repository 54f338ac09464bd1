import Core
import HTTP
import OAuth

/// `--call 'METHOD URL [BODY]'` (README "Modern client profile"): the token used at once, the
/// way the OpenID Foundation's client tests end every flow. One request
/// with the token in the scheme its `token_type` names (RFC 6750 §2.1, or
/// RFC 9449 §7.1 with a fresh proof carrying `ath`); a `use_dpop_nonce`
/// answer is sent once more with the server's nonce (BackChannel.swift,
/// whose nonce check is the one every DPoP request has); a `401
/// invalid_token` (RFC 6750 §3.1) with a refresh token at hand refreshes
/// once and calls once more. Redirects are not followed. The answer, any
/// status, goes into the result: the CLI prints its body and turns a status
/// of 400 or more into exit 10.
extension TokenFlow {
    /// The call's URL passes the plain-http rule before anything is sent:
    /// a login spent on a token that may not be used there is a login lost.
    func refuseCallBeforeAnyRequest() throws(FlowError) {
        guard let call = settings.call.request else { return }
        do {
            try client.policy.check(call.url)
        } catch {
            throw .http(error)
        }
    }

    func withCall(_ result: FlowResult) throws(FlowError) -> FlowResult {
        guard let call = settings.call.request, case .token(var token) = result else { return result }
        // The user named this URL for the token: its origin may receive it
        // and the -H headers (HTTP/OriginPolicy.swift).
        origins.trust([call.url])
        for (origin, nonce) in token.dpopNonces { profile.nonces.give(nonce, for: origin) }
        if let nonce = settings.profile.dpopNonce { profile.nonces.give(nonce, for: call.url) }
        var response = try send(call, with: token)
        var refreshed = false
        if response.status == 401, UserInfoResponse.bearerError(response)?.error == "invalid_token",
           let refreshToken = token.response.refreshToken {
            client.trace.info("the resource server refused the token (invalid_token): refreshing it once and calling again")
            let answer: TokenResponse
            do throws(FlowError) {
                answer = try refreshFlow().run(refreshToken, at: target(), stored: token.response)
            } catch {
                // A refresh token the server refuses is of no more use than the access token it would renew.
                if case .oauth(.tokenRefused(_, let object, _)) = error, object.code == .invalidGrant { tokenCache?.drop() }
                throw error
            }
            var renewed = MintedToken(response: TokenMerge.merge(answer: answer, into: token.response), receivedAt: now(), source: .refresh)
            renewed.userinfo = token.userinfo
            token = renewed
            refreshed = true
            response = try send(call, with: token)
        }
        token.dpopNonces = profile.nonces.all
        tokenCache?.keep(refreshed ? token : nil, nonces: token.dpopNonces)
        let place = URIReference(call.url)?.withoutQuery ?? call.url
        token.call = CallAnswer(status: response.status, body: response.body, method: call.method.rawValue, place: place,
                                bearerError: response.status >= 400 ? UserInfoResponse.bearerError(response) : nil)
        return .token(token)
    }

    /// One attempt (a nonce retry included): the token presented as its
    /// `token_type` says, the body as `--step` sends it.
    private func send(_ call: Step, with token: MintedToken) throws(FlowError) -> HTTPResponse {
        var request = HTTPRequest(method: call.method, url: call.url)
        if let body = call.body {
            request.headers.append(HTTPHeader("Content-Type", call.isJSON ? "application/json" : "application/x-www-form-urlencoded"))
            request.body = Array(body.utf8)
        }
        return try profile.sendToResource(request, accessToken: token.response.accessToken ?? "", tokenType: token.response.json["token_type"]?.stringValue,
                                          through: client, purpose: "call: \(call.method.rawValue) \(URIReference(call.url)?.withoutQuery ?? call.url)")
    }
}
