import Core
import HTTP

/// The hop loop of ARCHITECTURE.md "The walk": send, look at the answer, and either
/// stop at the redirect_uri (never fetching it), follow a redirect inside the
/// authorization server, or fill in and submit the page's form — the way a
/// person's browser would, until the answer arrives or `--max-hops` runs out.
package final class Walker {
    let client: HTTPClient
    let target: RedirectTarget
    let maxHops: Int
    let pages: PageHandler
    /// Our state: a redirect elsewhere that carries it is our answer going
    /// to the wrong place, and following it would hand the code over.
    let state: String
    /// `--passkey`: what a login driver answers WebAuthn with (WebAuthn/Passkey.swift).
    package var passkey = Passkey()
    /// The login drivers this walk may hand a page to (Drivers/).
    let drivers: DriverRegistry
    /// Hops so far: redirects followed, forms submitted and driver requests
    /// sent, against `--max-hops`.
    private(set) var hops = 0
    /// Reads by login drivers so far (DriverSession.send), against `readLimit`.
    private var reads = 0
    /// `--idp NAME`: the first page that is not a redirect still goes to it.
    private var forcedPending: Bool
    /// The authorization request this walk began with: a driver that gets
    /// a one-time session from the provider's API sends it again with that
    /// session (Okta's `sessionToken`, Drivers/Okta/).
    private(set) var authorizationRequest: HTTPRequest?
    /// The provider field names the login drivers asked for
    /// (DriverSession.value(for:)).
    private var driverAsked: [String] = []
    /// The `--form` values as given.
    let formValues: [NameValue]

    package init(client: HTTPClient, target: RedirectTarget, maxHops: Int, formValues: [NameValue], submit: SubmitChoice?, state: String,
                 drivers: DriverRegistry = DriverRegistry()) {
        self.client = client
        self.target = target
        self.maxHops = maxHops
        self.state = state
        self.drivers = drivers
        forcedPending = drivers.forcesFirstPage
        self.formValues = formValues
        pages = PageHandler(target: target, formValues: formValues, submit: submit, trace: client.trace)
        pages.state = state
    }

    /// A walk with no second try (a GET authorization request): the
    /// answer, or the failure that ends the run.
    package func walk(from first: HTTPRequest) throws(WalkError) -> AuthorizationAnswer {
        switch try walk(from: first, fallingBack: nil) {
        case .answer(let answer): return answer
        case .fallBack(let reason): throw reason.failure
        }
    }

    /// - Parameter leakGuard: the `--form` values of a POST authorization
    ///   request, which may be sent again as a GET: the walk then stops
    ///   where that fallback takes over (Flow/MethodFallback.swift) and
    ///   says why. Nil: it never falls back.
    package func walk(from first: HTTPRequest, fallingBack leakGuard: CredentialLeak?) throws(WalkError) -> WalkOutcome {
        do throws(WalkError) {
            guard leakGuard != nil else { return try loop(from: first, leakGuard: nil) }
            do throws(WalkError) {
                return try loop(from: first, leakGuard: leakGuard)
            } catch where error.isDeadEnd && !credentialsSubmitted {
                // After a login, a second try would log in again: a lockout
                // counter would count it, and the failure is the server's answer.
                return .fallBack(.walkFailed(error))
            }
        } catch {
            throw withUnmatchedFormNames(error)
        }
    }

    /// A login that failed (rejected, or credentials missing) after it met
    /// a form or a driver: the `--form` names that matched no field and no
    /// name a driver asked for, with what there was. The generic
    /// `username` and `password` count as unmatched only where a whole HTML
    /// login form (one with a password field) could not place them: a
    /// driver takes them always, and an identifier-first page asks for the
    /// password later.
    func withUnmatchedFormNames(_ error: WalkError) -> WalkError {
        guard error.isLoginFailure, !pages.seenNames.isEmpty || !driverAsked.isEmpty else { return error }
        let genericMatched = !driverAsked.isEmpty || !pages.loginHasPassword
        var unmatched: [String] = []
        for value in formValues where !pages.seenNames.contains(value.name) && !driverAsked.contains(value.name) && !unmatched.contains(value.name) {
            if genericMatched && [GenericCredentials.username, GenericCredentials.password].contains(value.name) { continue }
            unmatched.append(value.name)
        }
        guard !unmatched.isEmpty else { return error }
        return .unmatchedFormNames(unmatched, fields: driverAsked.isEmpty ? pages.loginFields : driverAsked, error)
    }

    private func loop(from first: HTTPRequest, leakGuard: CredentialLeak?) throws(WalkError) -> WalkOutcome {
        var request = first
        authorizationRequest = first
        hops = 0
        reads = 0
        // An answer a driver already fetched for `request` (DriverStep.received).
        var received: HTTPResponse?
        // A request is a repeat only if its cookies are the same too: coming
        // back to /authorize after logging in is progress, not a loop.
        var seen: Set<String> = []
        while true {
            let response: HTTPResponse
            if let answer = received {
                response = answer
                received = nil
            } else {
                // Whatever led here (a refresh, a GET form), the redirect_uri is
                // the answer and is never fetched.
                if let destination = URIReference(request.url), target.matches(destination) {
                    client.trace.info("redirect_uri reached by \(request.method) \(client.trace.redactor.url(request.url)); not fetched")
                    return .answer(.redirect(destination))
                }
                try AnswerGuard.check(request, state: state)
                let key = "\(request.method) \(request.url)\n\(request.body.map { String(decoding: $0, as: UTF8.self) } ?? "")\n\(client.cookieHeader(for: request.url) ?? "")"
                guard seen.insert(key).inserted else {
                    throw .redirectLoop(method: request.method, at: Self.place(request.url))
                }
                if hops > 0, let leakGuard, leakGuard.isCarried(by: request, filledByUs: request.method == .get && request == pages.credentialRequest) {
                    return .fallBack(.formValueInURL(place: Self.place(request.url)))
                }
                // A redirect back to the bare endpoint is never followed; a
                // form posted there may carry the request in its own fields
                // (a txn), so only its refusal says the request was lost.
                let lost = hops > 0 && leakGuard != nil && LostRequest.isLost(request, first: first)
                if lost, request.body?.isEmpty ?? true {
                    return .fallBack(.requestLost(place: Self.place(request.url)))
                }
                do {
                    response = try client.send(request, purpose: hops == 0 ? "authorization request" : "hop \(hops) of at most \(maxHops)")
                } catch {
                    throw .http(error)
                }
                if hops == 0, leakGuard != nil, FallbackReason.refusalStatuses.contains(response.status) {
                    return .fallBack(.refused(status: response.status, place: Self.place(request.url)))
                }
                if lost, response.status >= 400 {
                    return .fallBack(.requestLost(place: Self.place(request.url)))
                }
            }
            let next: HTTPRequest
            let page = ParsedPage(response)  // parsed once for the guard and the handler
            if response.isRedirect {
                let destination = try Self.location(of: response, requestedFrom: request.url)
                if target.matches(destination) {
                    client.trace.info("redirect_uri reached: \(response.status) to \(client.trace.redactor.url(destination.text)); not fetched")
                    return .answer(.redirect(destination))
                }
                if AnswerGuard.carriesAnswer(destination, state: state) {
                    throw .answerRedirected(to: Self.place(destination.text), at: Self.place(request.url))
                }
                next = Self.follow(response.status, to: destination.text, from: request)
                client.trace.info("\(request.method) \(Self.place(request.url)) (\(response.status) → \(client.trace.redactor.url(destination.text)))")
            } else if response.isSuccess, let answer = try AnswerGuard.inspect(response, at: request.url, target: target, state: state,
                                                                               page: page) {
                client.trace.info("redirect_uri reached by the page's refresh; not fetched")
                return .answer(answer)
            } else if let handOff = try drive(DriverPage(request: request, response: response, parsed: page, forced: forcedPending)) {
                // A driver's steps changed the server's state: what comes
                // round after them is progress, as after a form.
                seen.removeAll()
                if let answer = handOff.received {
                    // The driver's own request already counted as a hop.
                    request = handOff.request
                    received = answer
                    continue
                }
                // An autosubmit form a driver met (Authentik's ak-stage-autosubmit):
                // aimed at the redirect_uri, its fields are the form_post answer, never sent.
                if let answer = Self.formPostAnswer(handOff.request, target: target) {
                    client.trace.info("a driver's form aimed at the redirect_uri: reading its fields, not submitting")
                    return .answer(answer)
                }
                next = handOff.request
            } else if (response.isSuccess && PageHandler.isHTML(response)) || pages.isRejection(response, to: request) {
                switch try pages.handle(response, at: request.url, rejected: !response.isSuccess, page: page) {
                case .answer(let answer):
                    return .answer(answer)
                case .submit(let submission):
                    // A form sent changes the server's state (a login, an
                    // OTP step, a flash message): the same URL with the same
                    // cookies after it is the next step, not a loop (Auth0's
                    // /authorize/resume, GitLab's sign-in page after a
                    // wrong password). --max-hops still bounds the walk.
                    seen.removeAll()
                    next = submission
                }
            } else {
                throw .unexpectedStatus(response.status, Self.pageText(response), at: Self.place(request.url))
            }
            // The redirect_uri is never fetched (the loop's top reads it), so reaching it is no hop.
            if !target.matches(next.url) { try countHop(toward: next.url) }
            request = next
        }
    }

    /// How many reads (GETs) login drivers may make in one walk: four per
    /// hop allowed, ample for a provider that reads its state after each
    /// answer (DriverSession.send).
    var readLimit: Int { 4 * maxHops }

    /// One more read by a driver; false once `readLimit` is spent.
    func countRead() -> Bool {
        reads += 1
        return reads <= readLimit
    }

    /// One more hop toward `url`, within `--max-hops`.
    func countHop(toward url: String) throws(WalkError) {
        hops += 1
        guard hops <= maxHops else {
            throw .hopLimit(maxHops, at: Self.place(url))
        }
    }

    /// Hands a page that is not a redirect to the driver that takes it, if
    /// any (Drivers/DriverRegistry.swift); nil leaves it to the generic walk.
    private func drive(_ page: DriverPage) throws(WalkError) -> HandOff? {
        forcedPending = false
        guard let driver = drivers.driver(for: page) else { return nil }
        client.trace.info("\(driver.provider.rawValue) login\(page.forced ? " (\(client.trace.names.idp))" : ""): driver takes \(Self.place(page.url))")
        let session = DriverSession(client: client, walker: self, provider: driver.provider)
        defer { for name in session.askedNames where !driverAsked.contains(name) { driverAsked.append(name) } }
        let step: DriverStep
        do throws(DriverError) {
            step = try driver.drive(from: page, in: session)
        } catch .walk(let error) {
            throw error
        } catch {
            throw .driver(error)
        }
        switch step {
        case .send(let request): return HandOff(request: request, received: nil)
        case .received(let response, let request): return HandOff(request: request, received: response)
        case .generic: return nil
        }
    }

    /// Where a driver leaves the walk: the request to go on with, and its
    /// answer when the driver sent it already.
    private struct HandOff {
        let request: HTTPRequest
        let received: HTTPResponse?
    }

    /// A form POST to the redirect_uri handed over by a driver: the
    /// authorization response in its fields (OAuth 2.0 Form Post Response Mode).
    static func formPostAnswer(_ request: HTTPRequest, target: RedirectTarget) -> AuthorizationAnswer? {
        guard request.method == .post, let url = URIReference(request.url), target.matches(url), let body = request.body,
              request.headers.first(named: "Content-Type") == "application/x-www-form-urlencoded" else { return nil }
        let fields = FormEncoding.decode(ASCII.string(body)).map { NameValue($0.0, $0.1) }
        return .formPost(fields: fields, page: place(request.url))
    }

    /// A driver's request carried the user's credentials: a login was tried,
    /// so no fallback may try it again, and a login page coming back
    /// turns them down (LoginRejection.swift).
    func credentialsWentOut(in request: HTTPRequest) {
        pages.noteCredentials(sentIn: request)
    }

    /// The redirect's target, resolved against the URL that answered (RFC 3986 §5).
    static func location(of response: HTTPResponse, requestedFrom url: String) throws(WalkError) -> URIReference {
        // Location is a singleton field (RFC 9110 §10.2.2): two that differ
        // leave no way to know which the server meant, and the one carrying
        // a code must not be taken. Malformed; neither is followed.
        // Identical repeats are one field.
        let values = response.headers.filter { $0.name.lowercased() == "location" }.map(\.value)
        if values.contains(where: { $0 != values[0] }) {
            throw .locationsDiffer(status: response.status, count: values.count, at: place(url))
        }
        guard let value = values.first, !value.isEmpty else {
            throw .redirectWithoutLocation(status: response.status, at: place(url))
        }
        guard let reference = URIReference(value), let base = URIReference(url) else {
            throw .locationNotURI(status: response.status, at: place(url))
        }
        return reference.resolved(against: base)
    }

    /// 307 and 308 repeat the request as it was (RFC 9110 §15.4.8-9); the
    /// others become a GET, as every browser does for 301 and 302 too.
    static func follow(_ status: Int, to url: String, from request: HTTPRequest) -> HTTPRequest {
        // The fragment of a Location is for the browser, never sent.
        let target = ASCII.prefix(url, before: ASCII.hash)
        if status == 307 || status == 308 {
            var repeated = request
            repeated.url = target
            repeated.headers.removeAll { $0.name.lowercased() == "cookie" }
            // The body is sent again: to an untrusted origin, never (OriginPolicy.swift).
            repeated.credential = repeated.body?.isEmpty == false ? .replayedBody(status: status) : nil
            return repeated
        }
        return HTTPRequest(method: request.method == "HEAD" ? "HEAD" : "GET", url: target)
    }

    /// What a page says, for an error line: its alert or error message by
    /// the rules of LoginErrorText.swift, else its main text (HTTP/Quoting/BodyQuote.swift).
    static func pageText(_ response: HTTPResponse) -> BodyQuote {
        if PageHandler.isHTML(response), let alert = LoginErrorText.find(in: response.text) {
            return .alert(alert)
        }
        return .page(response)
    }

    /// A URL fit for an error line: no query, no fragment.
    package static func place(_ url: String) -> String {
        URIReference(url)?.withoutQuery ?? "the authorization server"
    }
}
