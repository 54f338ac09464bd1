import Core
import HTTP

/// An answer the walk met that a driver may take: not a redirect, any
/// status (a Kerberos realm's `401` login page is one), with what the
/// request was, so a driver can tell where it is and resolve what the page
/// links to.
package struct DriverPage {
    /// The request this page answers.
    package let request: HTTPRequest
    package let response: HTTPResponse
    let parsed: ParsedPage
    /// Handed over by `--idp NAME` without being recognised: the driver
    /// says what it saw if it does not know the page.
    package let forced: Bool

    init(request: HTTPRequest, response: HTTPResponse, parsed: ParsedPage, forced: Bool = false) {
        self.request = request
        self.response = response
        self.parsed = parsed
        self.forced = forced
    }

    /// The URL the page came from.
    package var url: String { request.url }

    /// The page's URL without query or fragment, for an error line.
    package var place: String { Walker.place(request.url) }

    /// `scheme://host[:port]`, as a browser would name the page's origin in
    /// WebAuthn's clientDataJSON (RFC 6454).
    package var origin: String? { URIReference(request.url)?.origin }

    /// The body decoded as text (UTF-8, invalid bytes replaced), once.
    package var html: String { parsed.html }

    /// The page's forms, parsed once (HTMLFormParser.swift).
    package var forms: [HTMLForm] { parsed.forms }

    /// The answer's media type, lower case, without parameters.
    package var mediaType: String? { response.mediaType }

    /// Whether the body is an HTML page (Content-Type, or `<` first when none).
    package var isHTML: Bool { PageHandler.isHTML(response) }

    /// Where a form of the page goes, as a browser works it out — its
    /// `<base href>`, the URL parser's clean-up (FormTarget.swift); nil when
    /// the action is no URL, where a browser submits nothing.
    package func action(of form: HTMLForm) -> String? {
        FormTarget(pageURL: request.url, baseHref: parsed.baseHref)?.url(of: form)?.text
    }

    /// A link of the page resolved against the page's URL (RFC 3986 §5).
    package func resolve(_ reference: String) -> String? {
        guard let target = URIReference(reference), let base = URIReference(request.url) else { return nil }
        return target.resolved(against: base).text
    }
}
