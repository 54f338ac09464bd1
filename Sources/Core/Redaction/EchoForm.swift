/// One way a server may write a secret back (EchoEncoding.swift): a name
/// for a form, not the form itself, so that a secret's forms are written
/// only when needed and, for a long secret, only into a sink that measures
/// them (FormSketch.swift) — never dozens of copies of a 4 MB token.
enum EchoForm: Sendable {
    case raw
    /// Percent-encoded once, or `twice` (a URL carried in another URL's parameter).
    case percent(EchoEncoding.PercentSet, spaceAsPlus: Bool, upperHex: Bool, twice: Bool)
    case html(EchoEncoding.HTMLQuotes)
    case json(EchoEncoding.JSONOptions)
    /// RFC 4648 §4 with padding, §4 without it, §5 (base64url) without it.
    case base64Padded, base64Unpadded, base64URL

    /// Writes `secret` in this form into `sink`.
    func write<Sink: ByteSink>(_ secret: String, into sink: inout Sink) {
        switch self {
        case .raw:
            for byte in secret.utf8 { sink.put(byte) }
        case .percent(let set, let spaceAsPlus, let upperHex, let twice):
            if twice {
                let outer = EchoEncoding.PercentEncoded(into: sink, set: set, spaceAsPlus: spaceAsPlus, upperHex: upperHex)
                var inner = EchoEncoding.PercentEncoded(into: outer, set: set, spaceAsPlus: spaceAsPlus, upperHex: upperHex)
                for byte in secret.utf8 { inner.put(byte) }
                sink = inner.inner.inner
            } else {
                var once = EchoEncoding.PercentEncoded(into: sink, set: set, spaceAsPlus: spaceAsPlus, upperHex: upperHex)
                for byte in secret.utf8 { once.put(byte) }
                sink = once.inner
            }
        case .html(let quotes):
            EchoEncoding.html(secret, quotes: quotes, into: &sink)
        case .json(let options):
            EchoEncoding.json(secret, options: options, into: &sink)
        case .base64Padded:
            Base64URL.encode(secret.utf8, standard: true, pad: true, into: &sink)
        case .base64Unpadded:
            Base64URL.encode(secret.utf8, standard: true, pad: false, into: &sink)
        case .base64URL:
            Base64URL.encode(secret.utf8, standard: false, pad: false, into: &sink)
        }
    }

    /// The form as text.
    func text(of secret: String) -> String {
        var out = ByteCollector(capacity: secret.utf8.count)
        write(secret, into: &out)
        return out.string
    }
}
