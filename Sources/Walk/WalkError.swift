import HTTP

/// Every way the walk to the authorization response fails, as a value: the
/// requests it sends (`http`), and what it met on the way — the redirects,
/// the pages and their forms, the answer sent elsewhere. Places are URLs
/// without their query (`Walker.place`). The CLI words each case and picks
/// its exit code (CLI/Errors/); the walk itself only asks `isDeadEnd`.
package indirect enum WalkError: Error, Equatable, Sendable {
    /// A request of the walk failed (policy, origin, redirect_uri, transport).
    case http(HTTPError)
    /// A login driver stopped (Drivers/): its own reason, never `.walk`
    /// (the walk's error is thrown as it is).
    case driver(DriverError)

    // Redirects and status (Walker.swift).
    /// The same request with the same cookies came round again.
    case redirectLoop(method: HTTPMethod, at: String)
    case redirectWithoutLocation(status: Int, at: String)
    case locationNotURI(status: Int, at: String)
    /// A redirect with Location fields that differ (RFC 9110 §10.2.2: a
    /// singleton field): neither is followed.
    case locationsDiffer(status: Int, count: Int, at: String)
    /// A status the walk cannot go on from, and what the page says.
    case unexpectedStatus(Int, BodyQuote, at: String)
    /// No answer after this many hops.
    case hopLimit(Int, at: String)

    // The answer sent elsewhere (RFC 6749 §10.6).
    /// A redirect carrying the answer to a URL that is not the redirect_uri.
    case answerRedirected(to: String, at: String)
    /// A request, refresh or form that would carry the answer elsewhere
    /// (AnswerGuard.swift).
    case answerMisdirected(AnswerRoute, to: String, at: String)

    // Pages and forms (PageHandler.swift).
    case unresolvablePage(at: String)
    /// The chosen form's action (or the pressed control's formaction), as
    /// written, is no URL (FormTarget.swift): not submitted.
    case formActionNotURL(String, at: String)
    /// No form to fill: the page's title, how many forms it has, and for a
    /// page with none, what it says.
    case noFormToFill(title: String?, forms: Int, BodyQuote, at: String)
    /// No form, but scripts: a login only a browser can do (ScriptPage.swift).
    case needsJavaScript(at: String)
    /// The login form came back, or a 401/403/422 after credentials: what
    /// the page says (LoginErrorText.swift), else the status of a non-2xx
    /// page; whether the form turned down was a one-time code.
    case loginRejected(says: String?, status: Int?, oneTimeCode: Bool, at: String)
    /// The form could not be filled or submitted (FormSubmission.swift).
    case form(FormSubmissionError, at: String)
    /// A one-time code is asked for and there is no seed (OneTimeCodeField.swift).
    case oneTimeCodeWithoutSecret(field: String, at: String)
    /// A form sent with this field empty came back; `seeded`: a TOTP seed
    /// was given, but not for this field.
    case unfilledField(String, seeded: Bool, at: String)

    // Where a POST authorization request would have fallen back to GET
    // (FallbackReason.swift), when nothing falls back.
    case postRefused(status: Int, at: String)
    case formValueInURL(at: String)
    /// A later hop went back to the authorization endpoint without the
    /// POST's parameters (LostRequest.swift).
    case requestLost(at: String)

    // Before any request (RedirectURIGuard.refuseEndpoints).
    /// An endpoint of the flow is the redirect_uri.
    case endpointIsRedirectURI(GuardedEndpoint, at: String)

    /// The walk failed, and these `--form` names matched no field of any
    /// form met nor any name a login driver asked for: the fields the login
    /// form had (or the names the driver asked for) beside them, so a typo
    /// is not read as a wrong password (README "How the walk works" step 3).
    case unmatchedFormNames([String], fields: [String], WalkError)
}

/// How a page would carry the authorization response elsewhere.
package enum AnswerRoute: Equatable, Sendable {
    /// A request the walk was about to send, by its method.
    case request(HTTPMethod)
    case refreshHeader
    case metaRefresh
    case form
}

/// The endpoints of a flow that must not be the redirect_uri.
package enum GuardedEndpoint: Equatable, Sendable {
    case authorization, token, pushedAuthorization
    /// A `--step` request's URL.
    case step
}

extension WalkError {
    /// The walk found no way to the answer — a page, status or form it
    /// cannot go on from — as opposed to a failed security check, a network
    /// failure or an unreadable answer. Before credentials went out, a POST
    /// authorization request that ends so is sent again as GET
    /// (Walker.walk(from:fallingBack:)).
    package var isDeadEnd: Bool {
        switch self {
        case .http(let error):
            switch error {
            case .notAURL, .unsupportedScheme, .noHost, .untrustedOrigin: true
            case .plainHTTP, .redirectURI, .transportSetUp, .sessionShare, .optionRefused, .outOfMemory, .trustStoreUnusable, .bodyTooLarge, .malformedHeaders,
                 .network:
                false
            }
        case .driver(.walk(let error)):
            error.isDeadEnd
        case .driver(.passkey(let error, _)):
            error.isDeadEnd
        case .driver:
            true
        case .redirectLoop, .redirectWithoutLocation, .locationNotURI, .unexpectedStatus, .hopLimit, .unresolvablePage, .formActionNotURL, .noFormToFill,
             .needsJavaScript, .loginRejected, .form, .oneTimeCodeWithoutSecret, .unfilledField, .postRefused, .formValueInURL,
             .requestLost:
            true
        case .answerRedirected, .answerMisdirected, .endpointIsRedirectURI, .locationsDiffer:
            false
        case .unmatchedFormNames(_, _, let error):
            error.isDeadEnd
        }
    }

    /// The login itself failed: credentials turned down, or a login form
    /// that the `--form` values did not fill.
    var isLoginFailure: Bool {
        switch self {
        case .loginRejected, .form(.missingCredentials, _), .unfilledField: true
        case .driver(.loginRejected), .driver(.credentialsMissing): true
        default: false
        }
    }

    /// The error without the unmatched `--form` names around it.
    package var withoutFormNames: WalkError {
        if case .unmatchedFormNames(_, _, let error) = self { return error }
        return self
    }
}
