import Core
import HTTP

/// A realm with Kerberos (SPNEGO) on asks first for a ticket: `401` with
/// `WWW-Authenticate: Negotiate` and a page whose form, submitted by its
/// onload script or by its `<noscript>` button, goes on to the next way to
/// log in (services/…/authenticators/browser/SpnegoAuthenticator.java,
/// optionalChallengeRedirect). authcode has no ticket: it presses the
/// button, as a browser without scripting would.
enum KeycloakKerberos {
    static func isChallenge(_ page: DriverPage) -> Bool {
        guard page.response.status == 401,
              page.response.headers.all(named: "WWW-Authenticate").contains(where: { $0.lowercased().hasPrefix("negotiate") }) else { return false }
        return page.forms.contains { ($0.action ?? "").contains("/login-actions/") }
    }

    static func goOn(from page: DriverPage, in session: DriverSession) throws(DriverError) -> DriverStep {
        guard let form = page.forms.first(where: { ($0.action ?? "").contains("/login-actions/") }),
              let url = page.action(of: form) else {
            throw .pageUnknown(provider: .keycloak, saw: "a Kerberos challenge without its form", at: page.place)
        }
        session.trace.info("keycloak: Kerberos (SPNEGO) asked for; no ticket here, going on to the next way to log in")
        return .send(KeycloakSubmit.request(try KeycloakSubmit.fill(form, values: [], at: page.place), to: url, credential: false))
    }
}
