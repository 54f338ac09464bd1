import Core
import HTTP

/// The pages Entra puts between a finished sign-in and the code.
enum EntraInterrupts {
    /// `KmsiInterrupt`, "Stay signed in?": answered **No** (`LoginOptions`
    /// 3, the page's post `type` 28). authcode's cookie jar ends with the
    /// run (README "How the walk works" step 6: cookies are never written to disk), so a
    /// persistent session cookie would be of no use to it, and "No" leaves
    /// no long-lived sign-in session behind on the account. (saml2aws
    /// answers 1, "Yes"; the replica takes both, entra.md.)
    static func staySignedIn(_ config: EntraConfig, page: DriverPage, in session: DriverSession) throws(DriverError) -> DriverStep {
        guard let post = config.string("urlPost").flatMap(page.resolve), let context = config.context, let flowToken = config.flowToken else {
            throw .pageUnknown(provider: .entra, saw: "a KmsiInterrupt page without urlPost, sCtx or sFT", at: page.place)
        }
        if page.request.method == .post, Walker.place(page.request.url) == Walker.place(post) {
            throw .pageUnknown(provider: .entra, saw: "the \"Stay signed in?\" page again after answering it", at: page.place)
        }
        var fields: [(String, String)] = [("LoginOptions", "3"), ("type", "28"), ("ctx", context), (config.flowTokenName, flowToken)]
        if let canary = config.canary { fields.append(("canary", canary)) }
        if let sessionID = config.sessionID { fields.append(("hpgrequestid", sessionID)) }
        session.trace.info("entra: \"Stay signed in?\": answering No (authcode keeps no cookies after the run)")
        let request = HTTPRequest.form(url: post, fields: fields)
        return .received(try session.send(request, step: "Stay signed in? No (KmsiInterrupt)"), for: request)
    }

    /// `ConvergedProofUpRedirect`, "More information required" (register
    /// security info): skipped where the tenant still allows it
    /// (`urlSkipMfaRegistration`, as saml2aws does); otherwise it is an
    /// action the user must take in a browser.
    static func securityInfo(_ config: EntraConfig, page: DriverPage, in session: DriverSession) throws(DriverError) -> DriverStep {
        guard let skip = config.string("urlSkipMfaRegistration").flatMap(page.resolve) else {
            throw .requiredAction(provider: .entra, action: "register security info (ConvergedProofUpRedirect, no skip offered)", at: page.place)
        }
        session.trace.info("entra: security info registration asked for; skipping it, as the tenant still allows")
        let request = HTTPRequest(method: .get, url: skip)
        return .received(try session.send(request, step: "skip security info registration"), for: request)
    }
}
