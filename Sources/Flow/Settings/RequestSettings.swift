import Core
import OAuth

/// What the client asks for: the authorization request's own parameters
/// (RFC 6749 §4.1.1, RFC 7636) — or, with a refresh token, no
/// authorization request at all (RFC 6749 §6).
package struct RequestSettings: Equatable, Sendable {
    package var scope: String?
    /// `--param`s, in order.
    package var params: [NameValue] = []
    package var pkce: PKCEMethod = .s256
    package var responseMode: ResponseMode?
    package var method: AuthorizationMethod = .post
    /// `--refresh-token`: redeemed instead of a login.
    package var refreshToken: String?

    package init() {}

    /// Whether the scope asks for an id_token (OIDC Core §3.1.2.1).
    package var asksForOpenID: Bool {
        (scope ?? "").split(separator: " ").contains("openid")
    }

    /// `--param max_age=N` (OIDC Core §3.1.2.1), which the rules checked is
    /// a whole number of seconds.
    package var maxAge: Double? {
        params.last(where: { $0.name == "max_age" }).flatMap { Double($0.value) }
    }
}
