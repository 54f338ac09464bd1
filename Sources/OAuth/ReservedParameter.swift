/// The authorization-request parameters authcode sets itself
/// (AuthorizationRequest.swift), each sent exactly once: RFC 6749 §3.1 says
/// a parameter must not be included more than once. A `--param`, a
/// `--form` value (POSTed with the request, and filled into any form met on
/// the way) or a `--users` column of one of these names would send a second
/// copy or overwrite ours — a state we could no longer check, a challenge
/// that no longer matches our verifier — so each is refused before any
/// request. One list, read by every place that takes names from the user.
package enum ReservedParameter {
    /// Name → what to use instead.
    package static let names: [String: String] = [
        "response_type": "authcode always asks for response_type=code, the authorization-code grant",
        "client_id": "use --client-id",
        "redirect_uri": "use --redirect-uri",
        "scope": "use --scope",
        "state": "authcode sends a fresh state in every run and checks it in the answer",
        "nonce": "authcode sends a fresh nonce when scope has openid and checks it in the id_token",
        "code_challenge": "use --pkce",
        "code_challenge_method": "use --pkce",
        "response_mode": "use --response-mode",
        // RFC 9101 and RFC 9126: a request object or a pushed request carries
        // every parameter above once more.
        "request": "authcode sends the authorization parameters itself; a request object would carry them twice",
        "request_uri": "authcode sends the authorization parameters itself; a pushed request would carry them twice",
        // The modern client profile's own (RFC 8707, RFC 9396, RFC 9449 §10):
        // a repeated name would collapse to one, or be sent twice.
        "resource": "use --resource, which may be repeated",
        "authorization_details": "use --authorization-details, which is checked before any request",
        "dpop_jkt": "authcode sends it with --dpop and --par",
    ]

    /// What to use instead of `name`, nil when the name is free to use.
    /// Exact names: OAuth parameter names are case-sensitive (RFC 6749 §3.1).
    package static func instead(of name: String) -> String? {
        names[name]
    }

    /// The sentence after "… is not allowed: ".
    package static func reason(_ name: String) -> String? {
        instead(of: name).map { "authcode sets '\(name)' in the authorization request itself (\($0))" }
    }
}
