import Core
import OAuth

/// The cache key: SHA-256 over what makes two runs ask for the same token —
/// the issuer (else the token endpoint), client_id, redirect_uri, scope and
/// `--param`s (sorted: order does not change the grant) and the login
/// identity (identifier-like `--form` values and the `--step` URLs). Never a
/// secret: a password or client secret changes nothing here.
package enum CacheKey {
    package static func make(_ options: Options) -> String {
        let scopes = (options.scope ?? "").split(separator: " ").map(String.init).sorted()
        let params = options.params.map { "\($0.name)=\($0.value)" }.sorted()
        let identity = options.form.filter { IdentityField.isIdentity($0.name) }.map { "\($0.name)=\($0.value)" }
        let steps = options.steps.map(\.url)
        let parts: [[String]] = [
            ["authcode-cache-key-v1"],
            [options.issuer ?? options.tokenURL ?? ""],
            [options.clientID],
            [options.redirectURI],
            scopes, params, identity, steps,
        ]
        // Each part as a JSON array: unambiguous however the values look.
        let text = parts.map { "[" + $0.map(JSONText.quote).joined(separator: ",") + "]" }.joined(separator: "\n")
        return hex(SHA256.hash(text.utf8))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
