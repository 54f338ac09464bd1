import Core
import HTTP

/// Okta (README "Identity providers"): the hosted sign-in page is the Sign-In Widget, a
/// script over the org's JSON APIs, recognised by the configuration the
/// org renders into it (OktaSignInPage.swift). Which API the org speaks is
/// read from what it answers: a page with a state token is asked
/// Identity Engine's `introspect` first, as the widget does; an org that
/// does not answer it with an IDX response (a Classic org) — or a page
/// without a token — signs in through the Classic Authentication API.
package struct OktaDriver: LoginDriver {
    package var provider: IdentityProvider { .okta }

    package init() {}

    package func recognises(_ page: DriverPage) -> Bool {
        page.isHTML && OktaSignInPage.recognises(page.html)
    }

    package func drive(from page: DriverPage, in session: DriverSession) throws(DriverError) -> DriverStep {
        guard page.isHTML, OktaSignInPage.recognises(page.html), let signIn = OktaSignInPage(page) else {
            throw .pageUnknown(provider: .okta, saw: "a \(page.response.status) \(page.mediaType ?? "answer") without the Sign-In Widget's configuration",
                               at: page.place)
        }
        if let token = signIn.stateToken {
            session.remember(secret: token)
            if let first = try introspect(token, org: signIn.org, in: session) {
                session.trace.info("okta: the org answers Identity Engine's introspect; signing in through its remediations")
                var engine = OktaIdentityEngine(org: signIn.org)
                return try engine.run(from: first, in: session)
            }
            session.trace.info("okta: no Identity Engine answer to introspect; signing in through the Classic Authentication API")
        }
        return try OktaClassicLogin(org: signIn.org).run(in: session)
    }

    /// `POST /idp/idx/introspect {stateToken}` with the versioned media
    /// type the widget sends (okta-auth-js lib/idx/introspect.ts): the
    /// transaction's first step on an Identity Engine org, an answer that
    /// is not an IDX response (a 404, an Okta error object) elsewhere.
    private func introspect(_ token: String, org: String, in session: DriverSession) throws(DriverError) -> OktaIDXAnswer? {
        let type = "application/ion+json; okta-version=1.0.0"
        let request = HTTPRequest.json(org + "/idp/idx/introspect", .object(["stateToken": .string(token)]), contentType: type,
                                       headers: [HTTPHeader("Accept", type)])
        return OktaIDXAnswer(try session.send(request, step: "introspect (/idp/idx/introspect)"))
    }
}
