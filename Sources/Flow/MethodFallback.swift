import Core
import HTTP
import OAuth
import Walk

/// Why the POST authorization request is sent once more as a GET: RFC 6749
/// §3.1 makes GET the method every server must take, and servers that take
/// only GET refuse a POST (403, 405, 415), lead it to a page nobody can
/// walk, or, once the login form has the password, turn the request into a
/// GET by copying every field into a URL. Neither request carries a
/// `--form` value (AuthorizationRequest.httpRequest). At most once per run.
struct MethodFallback: Equatable {
    /// Why, as the walk returned it (Walk/Walker.swift decides: a refusal,
    /// a `--form` value about to go into a URL, or a dead end before any
    /// credentials were sent).
    let reason: FallbackReason

    /// The one `authcode: note:` line, naming the options as the command
    /// line does.
    func note(_ names: OptionNames) -> String {
        let why: String
        switch reason {
        case .refused(let status, _):
            why = "the server refused the POST authorization request (\(status))"
        case .formValueInURL(let place):
            why = "the server copied a \(names.form) value into a URL (\(place)), which was not followed"
        case .walkFailed:
            // The cause is the error line's, if the GET fails too, and -v's:
            // quoted here as well it would be said twice.
            why = "the POST authorization request led nowhere"
        case .requestLost(let place):
            why = "the server went back to the authorization endpoint without the POST's parameters (\(place))"
        }
        return "authcode: note: \(why); sending it again as GET without the \(names.form) values (\(names.method) GET goes there directly)"
    }
}

extension AuthorizationCodeFlow {
    /// Steps 2 and 3 of RFC 6749 §4.1: the authorization request and the
    /// walk to its answer, with the fallback to GET; returns the request
    /// whose state, nonce and verifier the answer must match.
    func authorizeAndWalk(from authorizeURL: String, at endpoints: ServerEndpoints) throws(FlowError) -> (AuthorizationRequest, AuthorizationAnswer) {
        let first = authorizationRequest()
        guard request.method == .post else {
            return (first, try walkOnce(walker(for: first), from: frontChannel(first, method: .get, at: endpoints, authorizeURL: authorizeURL)))
        }
        // The --step cookies stay; whatever the POST's walk collected goes
        // (a session that kept the POSTed fields, say).
        let cookies = client.saveCookies()
        let postWalker = try walker(for: first)
        let post = try frontChannel(first, method: .post, at: endpoints, authorizeURL: authorizeURL)
        let outcome: WalkOutcome
        do {
            outcome = try postWalker.walk(from: post, fallingBack: CredentialLeak(form))
        } catch {
            throw .walk(error)
        }
        switch outcome {
        case .answer(let answer):
            return (first, answer)
        case .fallBack(let reason):
            let fallback = MethodFallback(reason: reason)
            client.trace.info("falling back to GET: \(wording.message(.walk(reason.failure)))")
            // A fallback that works is not news (README "Output and exit codes", §4 step 2): the
            // note is -v's, beside the trace line above. It may quote server
            // text (a page title, a body excerpt).
            if output.verbosity == .verbose { notes?.writeErr(client.trace.redactor.finished(fallback.note(wording.names)) + "\n") }
            // A lost request comes after the server's login, whose session
            // the GET is answered from; other reasons may have left a
            // session holding the POSTed fields.
            if !reason.keepsCookies { client.restoreCookies(cookies) }
            let second = authorizationRequest()
            return (second, try walkOnce(walker(for: second), from: frontChannel(second, method: .get, at: endpoints, authorizeURL: authorizeURL)))
        }
    }

    /// A walk with no second try.
    func walkOnce(_ walker: Walker, from request: HTTPRequest) throws(FlowError) -> AuthorizationAnswer {
        do {
            return try walker.walk(from: request)
        } catch {
            throw .walk(error)
        }
    }

    /// A fresh request: new state, nonce and PKCE verifier each time.
    func authorizationRequest() -> AuthorizationRequest {
        let authorization = AuthorizationRequest(clientID: clientSettings.id, redirectURI: clientSettings.redirectURI, scope: request.scope,
                                                 pkce: request.pkce, responseMode: request.responseMode, extra: request.params + profile.settings.frontParams,
                                                 repeated: profileParameters, random: random)
        client.trace.redactor.remember(authorization.pkce.verifier)
        client.trace.redactor.remember(authorization.state)
        return authorization
    }

    func walker(for authorization: AuthorizationRequest) throws(FlowError) -> Walker {
        guard let redirect = URIReference(clientSettings.redirectURI) else {
            throw .redirectURINotURI
        }
        let walker = Walker(client: client, target: RedirectTarget(redirect), maxHops: walk.maxHops,
                            formValues: form, submit: walk.submit, state: authorization.state,
                            drivers: DriverRegistry(choice: walk.idp))
        walker.codes = walk.totp.map { OneTimeCodes(totp: $0, fieldName: walk.totpField, now: now) }
        walker.passkey = Passkey(store: walk.passkeyFile.map {
            PasskeyFile(path: $0, mayRegister: walk.passkeyRegister, timeout: lockTimeout, redactor: client.trace.redactor)
        })
        return walker
    }
}
