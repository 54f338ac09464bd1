import Core
import HTTP

/// What a driver may do, all through the walk's own HTTP client (cookies,
/// `-H`, proxies, the plain-http policy, trusted origins, the redirect_uri
/// guard, redaction and the `-v` trace), so that none of the walk's rules
/// has a side door (README "Identity providers").
package final class DriverSession {
    let client: HTTPClient
    /// The walk this session's requests count against: one hop budget.
    unowned let walker: Walker
    /// The driver now driving, for the trace and the errors.
    package let provider: IdentityProvider
    /// The provider's field names the driver asked for, in order: a run
    /// that fails names them beside the `--form` names nothing took.
    package private(set) var askedNames: [String] = []

    init(client: HTTPClient, walker: Walker, provider: IdentityProvider) {
        self.client = client
        self.walker = walker
        self.provider = provider
    }

    package var trace: Trace { client.trace }

    /// The authorization request the walk began with (method, URL and body
    /// as sent), for a provider that takes it again with a session of its
    /// own (Okta's `sessionToken`).
    package var authorizationRequest: HTTPRequest? { walker.authorizationRequest }

    /// Sends one request of the provider's protocol, traced as
    /// `<driver>: <step>`. A request that submits something (any method but
    /// GET and HEAD: an answer, a choice, a credential) is a hop of
    /// `--max-hops`, as a form the walk submits is; a GET that only reads the
    /// provider's state (its API, or the page a submission redirected to) is
    /// not, and reads are bounded by `Walker.readLimit` instead, so a
    /// provider that keeps a driver reading cannot keep it forever. A
    /// request carrying the user's credentials must say so
    /// (`request.credential = .filledForm`): it then goes only to a trusted
    /// origin (HTTP/OriginPolicy.swift).
    package func send(_ request: HTTPRequest, step: String) throws(DriverError) -> HTTPResponse {
        if request.method == .get || request.method == .head {
            guard walker.countRead() else { throw .noProgress(provider: provider, requests: walker.readLimit, at: Walker.place(request.url)) }
        }
        do throws(WalkError) {
            if request.method != .get && request.method != .head { try walker.countHop(toward: request.url) }
        } catch {
            throw .walk(error)
        }
        if request.credential != nil { walker.credentialsWentOut(in: request) }
        do {
            // The request's own trace line names the driver and the step.
            return try client.send(request, purpose: "\(provider.rawValue): \(step)")
        } catch {
            throw .walk(.http(error))
        }
    }

    /// The `--form` value of the first of these names the user gave; the
    /// provider's own field names first, then the generic ones
    /// (`username`, `password`) that every driver also takes.
    package func value(for names: [String]) -> String? {
        for name in names where !askedNames.contains(name) { askedNames.append(name) }
        for name in names {
            if let given = walker.pages.formValues.last(where: { $0.name == name }) { return given.value }
        }
        return nil
    }

    /// A fresh RFC 6238 code from `--totp-secret`, remembered as a secret.
    package func oneTimeCode(at place: String) throws(DriverError) -> String {
        guard var codes = walker.pages.codes else { throw .oneTimeCodeNeeded(provider: provider, at: place) }
        let code = codes.fresh()
        walker.pages.codes = codes
        client.trace.redactor.remember(code)
        return code
    }

    /// The run's software authenticator (`--passkey`, WebAuthn/Passkey.swift);
    /// `isAvailable` is false without one. Its errors are thrown as
    /// `.passkey(error, at: place)`.
    package var passkey: Passkey { walker.passkey }

    /// Whether the run has a `--totp-secret`.
    package var hasOneTimeCodes: Bool { walker.pages.codes != nil }

    /// The value of the cookie `name` that the jar would send to `url`
    /// (Authentik's CSRF header repeats its CSRF cookie).
    package func cookie(named name: String, for url: String) -> String? {
        guard let header = client.cookieHeader(for: url) else { return nil }
        for pair in header.split(separator: ";") {
            let text = pair.drop { $0 == " " }
            guard let equals = text.firstIndex(of: "=") else { continue }
            if text[..<equals] == Substring(name) { return String(text[text.index(after: equals)...]) }
        }
        return nil
    }

    /// A value the provider hands out that works as a credential (a session
    /// token, a state handle, a flow token, a CSRF value): scrubbed from
    /// every output from now on, in every form.
    package func remember(secret: String) {
        client.trace.redactor.remember(secret)
    }

    /// The answer's body as JSON, or `.pageUnknown` saying what came
    /// instead (its status, type and length — never the body, which may
    /// hold a token).
    package func json(_ response: HTTPResponse, at place: String) throws(DriverError) -> JSONValue {
        if let value = JSONValue.parse(response.body) { return value }
        let type = response.mediaType ?? "no content type"
        throw .pageUnknown(provider: provider, saw: "a \(response.status) answer of \(response.body.count) bytes of \(type) where JSON was expected", at: place)
    }
}
