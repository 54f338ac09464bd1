import Core

/// A short, printable excerpt of a response body for error lines: enough to
/// recognise the page, never a whole document on the terminal.
///
/// The body goes into the message raw, marked: its tags are stripped and it
/// is bounded only once the run's secrets are scrubbed from it
/// (ServerText.swift). Stripping first would change a secret that holds `<`
/// or `>`, and the scrubber would miss what remains.
package enum Excerpt {
    /// Raw bytes carried past what the visible text needs, so that a secret
    /// running across that point is still whole when it is scrubbed.
    static let slack = 8_192

    package static func of(_ response: HTTPResponse, limit: Int = 120) -> String {
        var body = response.body
        let html = response.mediaType == "text/html" || body.prefix(VisibleText.limit).contains(UInt8(ascii: "<"))
        // The page's main text, not the site around it (MainText.swift).
        if html, let main = MainText.range(in: body), !VisibleText.of(Array(body[main]), html: true).isEmpty {
            body = Array(body[main])
        }
        guard !VisibleText.of(body, html: html).isEmpty else { return "" }
        let raw = body.prefix(VisibleText.extent(of: body, html: html) + slack)
        return ": " + ServerText.printable(String(decoding: raw, as: UTF8.self), limit: limit, html: html)
    }
}
