/// The authorization-request parameters authcode sets itself
/// (AuthorizationRequest.swift), each sent exactly once: RFC 6749 §3.1 says
/// a parameter must not be included more than once. A `--param`, a
/// `--form` value (POSTed with the request, and filled into any form met on
/// the way) or a `--users` column of one of these names would send a second
/// copy or overwrite ours — a state we could no longer check, a challenge
/// that no longer matches our verifier — so each is refused before any
/// request. One list, read by every place that takes names from the user;
/// the CLI words what to do instead (CLI/Errors/).
package enum ReservedParameter: Equatable, Sendable {
    /// Always response_type=code: the authorization-code grant.
    case responseType
    /// A fresh state in every run, checked in the answer.
    case state
    /// A fresh nonce when scope has openid, checked in the id_token.
    case nonce
    /// RFC 9101 and RFC 9126: a request object or a pushed request carries
    /// every parameter once more.
    case requestObject
    case pushedRequest
    /// RFC 9449 §10: sent with DPoP and PAR.
    case dpopKeyThumbprint
    /// An option of its own sets it.
    case option(ReservedOption)

    /// Name → why it is ours.
    package static let names: [String: ReservedParameter] = [
        "response_type": .responseType,
        "client_id": .option(.clientID),
        "redirect_uri": .option(.redirectURI),
        "scope": .option(.scope),
        "state": .state,
        "nonce": .nonce,
        "code_challenge": .option(.pkce),
        "code_challenge_method": .option(.pkce),
        "response_mode": .option(.responseMode),
        "request": .requestObject,
        "request_uri": .pushedRequest,
        // The modern client profile's own (RFC 8707, RFC 9396, RFC 9449 §10):
        // a repeated name would collapse to one, or be sent twice.
        "resource": .option(.resource),
        "authorization_details": .option(.authorizationDetails),
        "dpop_jkt": .dpopKeyThumbprint,
    ]

    /// Why `name` is ours, nil when the name is free to use. Exact names:
    /// OAuth parameter names are case-sensitive (RFC 6749 §3.1).
    package static func instead(of name: String) -> ReservedParameter? {
        names[name]
    }
}

/// The options that set a reserved parameter.
package enum ReservedOption: Equatable, Sendable {
    case clientID, redirectURI, scope, pkce, responseMode
    /// Repeatable, one parameter each (RFC 8707).
    case resource
    /// Checked before any request (RFC 9396).
    case authorizationDetails
}
