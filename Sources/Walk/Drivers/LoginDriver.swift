import HTTP

/// A provider whose login is more than the HTML forms the generic walk
/// fills (README "Identity providers"): a script over a JSON API, or pages that need
/// knowledge of that provider. A driver speaks the provider's own login
/// protocol through the walk's HTTP client (DriverSession.swift), so
/// cookies, trusted origins, redaction, the hop budget and the `-v` trace
/// hold for its requests as for any hop, and it hands the walk back a
/// request or an answer to go on with, so the redirect_uri test of the walk
/// decides where the authorization response is, as it does for every hop.
package protocol LoginDriver: Sendable {
    /// The provider, as `--idp` takes it and `-v` shows it.
    var provider: IdentityProvider { get }

    /// Whether this answer is this provider's login, judged from what the
    /// server sent — a path shape, a marker in the page, an embedded
    /// configuration object, a script's state token — never from the host
    /// name alone, which self-hosted deployments change. Called on every
    /// page the walk meets, so it must be cheap.
    func recognises(_ page: DriverPage) -> Bool

    /// Logs in from this page, through the session; says where the walk
    /// goes on.
    func drive(from page: DriverPage, in session: DriverSession) throws(DriverError) -> DriverStep
}
