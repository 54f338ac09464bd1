import Core
import HTTP

/// Microsoft Entra ID (README "Identity providers"): the converged sign-in pages hold no
/// form, only the `$Config` their script reads (EntraConfig.swift), and a
/// `<noscript>` refresh to a "JavaScript is blocked" page — so the page is
/// recognised by that configuration before the walk would follow the
/// refresh. Each page is handled from its own `$Config`, named by `pgid`;
/// the driver hands back the answer of the request the page's script would
/// have sent, and the walk brings the next page (or the redirect to the
/// redirect_uri) back here.
package struct EntraDriver: LoginDriver {
    package var provider: IdentityProvider { .entra }

    package init() {}

    package func recognises(_ page: DriverPage) -> Bool {
        page.isHTML && EntraConfig.recognises(page.html)
    }

    package func drive(from page: DriverPage, in session: DriverSession) throws(DriverError) -> DriverStep {
        guard page.isHTML, let config = EntraConfig(page.html) else {
            throw .pageUnknown(provider: .entra, saw: "a \(page.response.status) \(page.mediaType ?? "answer") without a converged page's $Config",
                               at: page.place)
        }
        for secret in config.secrets { session.remember(secret: secret) }
        session.trace.info("entra: page \(config.pageID)")
        switch config.pageID {
        case "ConvergedSignIn":
            return try EntraSignIn(config: config, page: page).run(in: session)
        case "ConvergedTFA":
            return try EntraSecondFactor(config: config, page: page).run(in: session)
        case "KmsiInterrupt":
            return try EntraInterrupts.staySignedIn(config, page: page, in: session)
        case "ConvergedProofUpRedirect":
            return try EntraInterrupts.securityInfo(config, page: page, in: session)
        default:
            if let code = config.errorCode ?? config.number("iErrorCode") {
                throw .loginRejected(provider: .entra, text: EntraErrorCodes.text(code: code, pageText: config.errorText), at: page.place)
            }
            throw .pageUnknown(provider: .entra, saw: "page \(config.pageID)", at: page.place)
        }
    }
}
