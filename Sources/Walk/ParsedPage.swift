import HTTP

/// One response's page, decoded and parsed at most once however many
/// rules read it: the answer guard, then the page handler, both look at
/// its forms and its meta refresh (Walker.swift).
final class ParsedPage {
    private let response: HTTPResponse

    init(_ response: HTTPResponse) {
        self.response = response
    }

    private(set) lazy var html: String = response.text
    private(set) lazy var forms: [HTMLForm] = HTMLFormParser.forms(in: html)
    /// The first `<base href>`, if any (DocumentBase.swift).
    private(set) lazy var baseHref: String? = DocumentBase.href(in: html)
    /// The URL of a `<meta http-equiv=refresh>`, if any (MetaRefresh.swift).
    private(set) lazy var metaRefresh: String? = MetaRefresh.target(in: html)
}
