import Core
import HTTP

/// authentik's flow interface page, `<prefix>/if/flow/<slug>/?<query>`: a
/// shell whose `<ak-flow-executor slug="…">` element (a script) runs the flow
/// through the executor API at `<prefix>/api/v3/flows/executor/<slug>/`,
/// handing it the page's query (Fixtures/server/replicas/authentik.md,
/// "State machine").
struct AuthentikFlowPage: Equatable {
    let slug: String
    /// `…/api/v3/flows/executor/<slug>/?query=<the page's query>`.
    let executorURL: String

    /// Nil unless the URL is a flow interface page's.
    init?(url: String) {
        guard let reference = URIReference(url), let origin = reference.origin else { return nil }
        let path = reference.path
        guard let marker = path.firstRange(of: "/if/flow/") else { return nil }
        let rest = path[marker.upperBound...]
        let slug = rest.prefix { $0 != "/" }
        guard !slug.isEmpty else { return nil }
        let prefix = path[..<marker.lowerBound]
        self.slug = String(slug)
        executorURL = origin + prefix + "/api/v3/flows/executor/" + slug + "/?query=" + FormEncoding.escape(reference.query ?? "")
    }

    /// Whether the flow would end at authentik's authorization endpoint
    /// (`/application/o/authorize/`) without the request's parameters: its
    /// authorization view hands the login flow the URL's path and query
    /// (authentik.md, "State machine" 1), so a POST authorization request's
    /// body is lost and the login cannot end in a code.
    static func losesAuthorizationRequest(_ url: String) -> Bool {
        guard let query = URIReference(url)?.query,
              let next = FormEncoding.decode(query).first(where: { $0.0 == "next" })?.1,
              let target = URIReference(next) else { return false }
        return target.path.hasSuffix("/application/o/authorize/") && (target.query ?? "").isEmpty
    }

    /// The page's executor element (flow.html) or the simplified executor's
    /// container (flow-sfe.html).
    static func hasExecutor(_ html: String) -> Bool {
        html.contains("<ak-flow-executor") || html.contains("flow-sfe-container")
    }
}
