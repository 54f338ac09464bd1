import Core
import HTTP

/// A page with no form that offers links carrying this authorization
/// request on — Dex's connector list ("Log in with Email", "Log in with
/// LDAP"), each `/auth/<connector>?<the request's query>` — is a choice of
/// how to log in, not a dead end. The links that carry our `state` on the
/// page's own origin are the ways on; the walk takes the first, as listed
/// (Dex lists its connectors in the configured order), and `-v` names the
/// others. Which one a server takes without asking is its own parameter
/// (Dex: `--param connector_id=ID`).
enum ContinuationLinks {
    struct Link: Equatable {
        var url: String
        var text: String
    }

    /// At most so many links are looked at, and their text is one short line.
    static let maxLinks = 64
    static let textLimit = 80

    /// The page's links to `base`'s origin whose query carries `state`, in
    /// page order, fragments dropped.
    static func find(in html: String, base: URIReference, state: String) -> [Link] {
        guard !state.isEmpty, let origin = base.origin else { return [] }
        var tokenizer = HTMLTokenizer(html, keepAttributes: { $0 == "a" })
        var links: [Link] = []
        var open: (url: String, text: LineText)?
        var looked = 0
        while let token = tokenizer.next() {
            switch token {
            case .startTag(let tag) where tag.name == "a":
                if let done = open { links.append(Link(url: done.url, text: done.text.result)) }
                open = nil
                looked += 1
                guard looked <= maxLinks, let href = tag["href"], let reference = URIReference(HTMLWhitespace.trim(href)) else { continue }
                var target = reference.resolved(against: base)
                target.fragment = nil
                guard target.origin == origin, let query = target.query,
                      FormEncoding.decode(query).contains(where: { $0.0 == "state" && $0.1 == state }) else { continue }
                open = (target.text, LineText(limit: textLimit))
            case .endTag("a"):
                if let done = open { links.append(Link(url: done.url, text: done.text.result)) }
                open = nil
            case .text(let range):
                if open != nil { open?.text.append(tokenizer.text(range)) }
            default:
                break
            }
        }
        if let done = open { links.append(Link(url: done.url, text: done.text.result)) }
        return links
    }
}
