// libFuzzer harness: a hostile `Location` header (or form action) as the walk
// meets it (ARCHITECTURE.md "The walk"): split it, resolve it against the request
// URL, decide whether it is the redirect_uri, read the authorization
// response from it, decode its query and redact it for the trace.
//
// Compiled together with the Swift layers of Sources/ into one executable whose module
// is AuthCodeFuzz (see Fixtures/fuzz/run.sh), so no import is needed and
// internal API is in reach.

/// The request URLs a Location is resolved against: an IdP path with a
/// query, a bare authority, a bracketed IPv6 loopback with a port.
private let locationBases: [URIReference] = [
    URIReference("https://idp.example.com:8443/realms/demo/protocol/openid-connect/auth?client_id=cli&state=s1")!,
    URIReference("http://127.0.0.1:8000")!,
    URIReference("http://[::1]:9000/o/authorize/?x=1#frag")!,
]

/// Redirect URIs of each kind README.md "Options" allows: loopback http, https on a
/// default port, a private-use scheme without authority.
private let locationTargets: [RedirectTarget] = [
    RedirectTarget(URIReference("http://127.0.0.1:8765/callback")!),
    RedirectTarget(URIReference("https://app.example.com/cb")!),
    RedirectTarget(URIReference("com.example.app:/oauth2redirect")!),
]

/// RFC 3986 Appendix B on the UTF-8 bytes, with URIReference's stricter
/// scheme rule (ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )): how curl and
/// every server split a URL. The delimiters are ASCII bytes wherever they
/// stand, whatever Unicode characters surround them.
private struct ByteSplit: Equatable {
    var scheme: [UInt8]?, authority: [UInt8]?, path: [UInt8], query: [UInt8]?, fragment: [UInt8]?

    init(_ text: String) {
        var rest = Array(text.utf8)[...]
        fragment = nil
        query = nil
        scheme = nil
        authority = nil
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")) {
            fragment = Array(rest[(hash + 1)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: UInt8(ascii: "?")) {
            query = Array(rest[(question + 1)...])
            rest = rest[..<question]
        }
        func isAlpha(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        if let colon = rest.firstIndex(of: UInt8(ascii: ":")), let first = rest.first, isAlpha(first),
           rest[..<colon].allSatisfy({ isAlpha($0) || (0x30...0x39).contains($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }) {
            scheme = Array(rest[..<colon])
            rest = rest[(colon + 1)...]
        }
        if rest.starts(with: [0x2F, 0x2F]) {
            let after = rest.dropFirst(2)
            let end = after.firstIndex(of: UInt8(ascii: "/")) ?? after.endIndex
            authority = Array(after[..<end])
            rest = after[end...]
        }
        path = Array(rest)
    }

    init(_ reference: URIReference) {
        scheme = reference.scheme.map { Array($0.utf8) }
        authority = reference.authority.map { Array($0.utf8) }
        path = Array(reference.path.utf8)
        query = reference.query.map { Array($0.utf8) }
        fragment = reference.fragment.map { Array($0.utf8) }
    }
}

/// Stops the run with a message libFuzzer records as a crash: a broken
/// invariant is as much a finding as a trap inside the product.
private func locationCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant broken: \(message())") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)

    // The trace redacts whatever it is given, parseable or not.
    _ = Redactor().url(text)

    // Query-string decoding on the raw text (a form_post body, a fragment).
    let pairs = FormEncoding.decode(text)
    // Encoding what was decoded and decoding it again gives the same pairs:
    // this is how a GET form's fields and a token request travel.
    let again = FormEncoding.decode(FormEncoding.encode(pairs))
    locationCheck(again.count == pairs.count && zip(again, pairs).allSatisfy { $0 == $1 },
                  "decode(encode(decode(x))) != decode(x)")
    _ = try? AuthorizationResponse(fields: pairs, where: "fuzz")

    guard let reference = URIReference(text) else { return 0 }
    // The reference is kept as the exact text received (URIReference's contract).
    locationCheck(reference.text.utf8.elementsEqual(text.utf8), "URIReference(x).text != x")
    // It is split where curl and the server split it: otherwise the walk
    // checks one URL and fetches another.
    locationCheck(ByteSplit(reference) == ByteSplit(text), "URIReference splits '\(text)' as \(reference), not at its ASCII delimiters")
    _ = reference.host
    _ = reference.effectivePort
    _ = reference.withoutQuery

    for base in locationBases {
        let resolved = reference.resolved(against: base)
        locationCheck(resolved.isAbsolute, "a reference resolved against an absolute base is not absolute")
        // The walk decides on the resolved value but fetches its text
        // (Walker.follow): both must be the same place, or a Location could
        // look foreign and still make authcode fetch the redirect_uri.
        // regressions/location/dot-segment-authority was one (`http:/.//host/cb`).
        let fetched = URIReference(resolved.text)
        locationCheck(fetched != nil, "resolved reference '\(resolved.text)' does not parse again")
        for target in locationTargets {
            locationCheck(target.matches(resolved) == fetched.map(target.matches),
                          "'\(text)' resolves to \(resolved), whose text '\(resolved.text)' is another place for redirect_uri \(target.uri.text)")
        }
        _ = Redactor().url(resolved.text)
        do {
            let response = try AuthorizationResponse(redirect: resolved, where: resolved.withoutQuery)
            _ = try? ResponseChecks(expectedState: "s1", expectedIssuer: "https://idp.example.com", issRequired: true)
                .verify(response, at: "fuzz")
        } catch {
            let exit = ErrorReport(.oauth(error)).exitCode
            locationCheck(exit == .securityCheck, "AuthorizationResponse threw exit \(exit)")
        }
    }
    for target in locationTargets {
        _ = target.matches(reference)
    }

    // Secret parameters come out of the trace masked: after redaction no
    // parameter with a secret name keeps a value other than the mask.
    let redacted = Redactor().url(text)
    if let shown = URIReference(redacted) {
        for part in [shown.query, shown.fragment].compactMap({ $0 }) {
            for (name, value) in FormEncoding.decode(part) where Redactor.isSecretName(name) {
                locationCheck(value.isEmpty || value == Redactor.mask, "secret parameter '\(name)' left unmasked in \(redacted)")
            }
        }
    }
    return 0
}
