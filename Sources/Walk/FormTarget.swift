import Core
import HTTP

/// Where a form goes and how, as a browser works it out (README "How the walk works" step
/// 3; HTML §4.10.21.3 "form submission algorithm", the URL Standard's basic
/// URL parser): the pressed submit control's `formaction` and `formmethod`
/// win over the form's `action` and `method`; an empty action is the page
/// itself; any other is parsed against the page's base URL (its `<base
/// href>`, else its own URL) after the parser's clean-up — leading and
/// trailing C0 controls and spaces trimmed, tabs and newlines anywhere
/// removed, other controls and spaces percent-encoded. A server's
/// `action="/lo⏎gin"` is `/login` to every browser; read any other way,
/// the password would be posted where the form did not say. Whether it
/// may go there at all is the trusted-origin rule's (HTTP/OriginPolicy.swift).
struct FormTarget {
    /// The page's own URL.
    let document: URIReference
    /// What its relative URLs resolve against.
    let base: URIReference

    /// nil when the page's URL itself cannot be read.
    init?(pageURL: String, baseHref: String?) {
        guard let document = URIReference(pageURL) else { return nil }
        self.document = document
        // HTML §4.2.3: the first <base href>, parsed against the document's
        // URL; one that does not parse leaves the document's URL.
        base = baseHref.flatMap { Self.parse($0, against: document) } ?? document
    }

    /// The URL the form sends to with `pressed` (nil: no control pressed);
    /// nil when the action does not parse, where a browser submits nothing.
    func url(of form: HTMLForm, pressed: HTMLField? = nil) -> URIReference? {
        let action = pressed?.formAction ?? form.action
        var resolved: URIReference
        if let action, !action.isEmpty {
            guard let parsed = Self.parse(action, against: base) else { return nil }
            resolved = parsed
        } else {
            resolved = document
        }
        // The fragment is the browser's, never sent.
        resolved.fragment = nil
        return resolved
    }

    /// `formmethod` of the pressed control when it has one, else the form's.
    func method(of form: HTMLForm, pressed: HTMLField? = nil) -> HTTPMethod {
        pressed?.formMethod ?? form.method
    }

    /// `input` as the URL Standard's basic URL parser reads it, resolved
    /// against `base` (RFC 3986 §5.2); nil when it is no URL reference.
    static func parse(_ input: String, against base: URIReference) -> URIReference? {
        URIReference(cleaned(input))?.resolved(against: base)
    }

    /// The URL parser's first steps (URL Standard §4.4): leading and trailing
    /// C0 controls and spaces go, and every ASCII tab or newline; a control
    /// or space left inside is percent-encoded, as the parser's percent-encode
    /// sets do in a path, query or fragment.
    static func cleaned(_ input: String) -> String {
        let bytes = Array(input.utf8)
        guard let first = bytes.firstIndex(where: { $0 > 0x20 }), let last = bytes.lastIndex(where: { $0 > 0x20 }) else { return "" }
        var out: [UInt8] = []
        out.reserveCapacity(last - first + 1)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in bytes[first...last] where byte != 0x09 && byte != 0x0A && byte != 0x0D {
            if byte <= 0x20 || byte == 0x7F {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
