import Core

/// clientDataJSON (WebAuthn Level 3 §5.8.1), serialized as §5.8.1.1 says,
/// byte for byte: `{"type":…,"challenge":…,"origin":…,"crossOrigin":false}`
/// in that order. A relying party may check it with the "limited
/// verification algorithm" (§5.8.1.2), which compares these exact bytes. A
/// page's own request is never cross-origin: authcode is the top-level
/// page, so there is no `topOrigin`.
struct CollectedClientData: Equatable {
    enum Kind: String {
        case get = "webauthn.get"
        case create = "webauthn.create"
    }

    var kind: Kind
    var challenge: [UInt8]
    /// A serialized origin (`RelyingPartyID.origin`).
    var origin: String

    var json: [UInt8] {
        let text = #"{"type":"# + Self.quoted(kind.rawValue) + #","challenge":"# + Self.quoted(Base64URL.encode(challenge))
            + #","origin":"# + Self.quoted(origin) + #","crossOrigin":false}"#
        return Array(text.utf8)
    }

    /// CCDToString (§5.8.1.1): `"` and `\` escaped with a backslash, other
    /// code points below U+0020 as `\u` and four lower-case hex digits,
    /// everything else as UTF-8.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
