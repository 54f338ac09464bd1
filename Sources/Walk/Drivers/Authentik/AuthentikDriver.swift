import Core
import HTTP

/// authentik's login (Fixtures/server/replicas/authentik.md): every flow —
/// the authentication flow, then the provider's authorization flow — is a
/// page whose script runs it through the flow executor API. The driver runs
/// the flow's stages through that API as the web client does and, when the
/// flow ends in a redirect (back to the authorization endpoint, or to the
/// redirect_uri with the code), hands it to the walk.
package struct AuthentikDriver: LoginDriver {
    package init() {}

    package var provider: IdentityProvider { .authentik }

    /// A flow interface page: the `/if/flow/<slug>/` path and the executor
    /// element the page's script drives.
    package func recognises(_ page: DriverPage) -> Bool {
        page.response.isSuccess && AuthentikFlowPage(url: page.url) != nil && AuthentikFlowPage.hasExecutor(page.html)
    }

    package func drive(from page: DriverPage, in session: DriverSession) throws(DriverError) -> DriverStep {
        guard let flow = AuthentikFlowPage(url: page.url), let origin = page.origin else {
            throw .pageUnknown(provider: .authentik, saw: "not a flow page (…/if/flow/<slug>/)", at: page.place)
        }
        if AuthentikFlowPage.losesAuthorizationRequest(page.url) {
            // Said before any credentials go out, so the walk sends the
            // authorization request again as a GET (Flow/MethodFallback.swift).
            throw .pageUnknown(provider: .authentik, saw: "the login would return to the authorization endpoint without the request's parameters (authentik keeps a GET request's query only)", at: page.place)
        }
        let executor = AuthentikExecutor(session: session, url: flow.executorURL)
        let stages = AuthentikStages(executor: executor, session: session, origin: origin)
        var challenge = try executor.challenge(step: "flow \(flow.slug)")
        var answered = false
        while true {
            // A challenge that comes back with errors turned our answer down.
            if answered, !challenge.errorTexts.isEmpty {
                throw .loginRejected(provider: .authentik, text: challenge.errorTexts.joined(separator: "; "), at: executor.place)
            }
            switch challenge.component {
            case "xak-flow-redirect":
                guard let to = challenge["to"]?.stringValue, let next = Self.resolve(to, against: executor.url) else {
                    throw .pageUnknown(provider: .authentik, saw: "a redirect without a target", at: executor.place)
                }
                session.trace.info("authentik: flow \(flow.slug) done; on to \(Walker.place(next))")
                return .send(HTTPRequest(method: .get, url: next))
            case "ak-stage-autosubmit":
                guard let url = challenge["url"]?.stringValue, let action = Self.resolve(url, against: executor.url),
                      case .object(let attributes)? = challenge["attrs"] else {
                    throw .pageUnknown(provider: .authentik, saw: "an autosubmit stage without url and attrs", at: executor.place)
                }
                let fields = attributes.sorted { $0.key < $1.key }.map { ($0.key, $0.value.stringValue ?? "") }
                return .send(HTTPRequest.form(url: action, fields: fields))
            case "ak-stage-access-denied":
                throw .loginRejected(provider: .authentik, text: challenge["error_message"]?.stringValue, at: executor.place)
            case "ak-stage-flow-error":
                let text = challenge["error"]?.stringValue.map { ": " + $0 } ?? ""
                throw .pageUnknown(provider: .authentik, saw: "the flow failed\(text)", at: executor.place)
            default:
                challenge = try stages.answer(challenge)
                answered = true
            }
        }
    }

    static func resolve(_ reference: String, against url: String) -> String? {
        guard let target = URIReference(reference), let base = URIReference(url) else { return nil }
        return target.resolved(against: base).text
    }
}
