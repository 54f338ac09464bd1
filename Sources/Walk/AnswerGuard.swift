import Core
import HTTP

/// Every way a server can deliver the authorization response gets the same
/// test as a 3xx `Location` (RFC 6749 §4.1.2, §10.6): a `Refresh` header, a
/// meta refresh, a form on the page (self-submitting or not), or any request
/// the walk is about to send. Aimed at the redirect_uri, it is the answer and
/// is read, never fetched; carrying the answer anywhere else, it is refused
/// and never fetched either: following it would hand the code to whoever
/// listens there.
package enum AnswerGuard {
    /// Our state beside a code or an error: the authorization response.
    static func isAnswer(_ fields: [(String, String)], state: String) -> Bool {
        fields.contains { $0.0 == "state" && $0.1 == state } && fields.contains { $0.0 == "code" || $0.0 == "error" }
    }

    /// The answer in a URL's query or fragment.
    static func carriesAnswer(_ url: URIReference, state: String) -> Bool {
        [url.query, url.fragment].contains { part in part.map { isAnswer(FormEncoding.decode($0), state: state) } ?? false }
    }

    /// The answer in a request's URL or form body.
    static func carriesAnswer(_ request: HTTPRequest, state: String) -> Bool {
        if let url = URIReference(request.url), carriesAnswer(url, state: state) { return true }
        guard let body = request.body, request.headers.first(named: "Content-Type") == "application/x-www-form-urlencoded" else { return false }
        return isAnswer(FormEncoding.decode(ASCII.string(body)), state: state)
    }

    /// The request the walk is about to send (a followed refresh, a
    /// submitted form), which is not to the redirect_uri: refused if it
    /// carries the answer.
    static func check(_ request: HTTPRequest, state: String) throws(WalkError) {
        guard carriesAnswer(request, state: state) else { return }
        throw misdirected(to: request.url, via: .request(request.method), from: nil)
    }

    /// A 2xx response's own ways of moving on: its `Refresh` header, and for
    /// a page its meta refresh and its forms. Returns the answer when one of
    /// them aims at the redirect_uri (never fetched); nil when none carries it.
    static func inspect(_ response: HTTPResponse, at pageURL: String, target: RedirectTarget, state: String,
                        page: ParsedPage? = nil) throws(WalkError) -> AuthorizationAnswer? {
        guard let base = URIReference(pageURL) else { return nil }
        let page = page ?? ParsedPage(response)
        var refreshes: [(text: String, via: AnswerRoute)] = response.headers.all(named: "Refresh").compactMap { header in
            MetaRefresh.target(ofContent: header).map { ($0, .refreshHeader) }
        }
        let isPage = PageHandler.isHTML(response)
        if isPage, let meta = page.metaRefresh { refreshes.append((meta, .metaRefresh)) }
        for refresh in refreshes {
            guard let reference = URIReference(refresh.text) else { continue }
            let destination = reference.resolved(against: base)
            if target.matches(destination) { return .redirect(destination) }
            if carriesAnswer(destination, state: state) { throw misdirected(to: destination.text, via: refresh.via, from: pageURL) }
        }
        guard isPage, let resolver = FormTarget(pageURL: pageURL, baseHref: page.baseHref) else { return nil }
        for form in page.forms {
            // A form whose action is no URL goes nowhere (FormTarget.swift).
            guard let action = resolver.url(of: form) else { continue }
            let fields = form.fields.filter { !$0.name.isEmpty }.map { ($0.name, $0.value) }
            if !target.matches(action), isAnswer(fields, state: state) {
                throw misdirected(to: action.text, via: .form, from: pageURL)
            }
        }
        return nil
    }

    static func misdirected(to url: String, via: AnswerRoute, from page: String?) -> WalkError {
        .answerMisdirected(via, to: Walker.place(url), at: page.map(Walker.place) ?? Walker.place(url))
    }
}
