import Core
import OAuth

/// The cache key: every input that chooses which token is minted or for
/// whom, so two different logins never share an entry — and nothing that
/// only proves an identity, so a rotated password or client secret still
/// finds its entry. There is no allow-list of identity names: login forms
/// call the user `user[email]`, `j_username`, `login_hint` or anything else,
/// so every `--form` field counts by any name, its value included unless
/// the redaction rule calls the name secret (Core/Redactor.swift).
///
/// Each component is one line below; CacheKeyBuilder.swift encodes them
/// unambiguously and seals them with the cache's salt (CacheSalt.swift).
package enum CacheKey {
    package static func make(_ options: Options, salt: [UInt8]) throws(CacheError) -> String {
        var key = CacheKeyBuilder()
        // Who mints it.
        key.add("issuer", [options.issuer ?? options.tokenURL ?? ""])
        key.add("authorize-url", [options.authorizeURL ?? ""])
        key.add("token-url", [options.tokenURL ?? ""])
        key.add("connect-to", options.connectTo.map(\.text))
        // Which client asks, and how it proves itself (never the secret).
        key.add("client-id", [options.clientID])
        key.add("client-auth", [options.authMethod.rawValue])
        key.add("client-certificate", [try CacheFileDigest.of(options.cert, option: .certificate)])
        key.add("client-certificate-key", [try CacheFileDigest.of(options.key, option: .certificateKey)])
        // What it asks for. Order does not change the grant.
        key.add("redirect-uri", [options.redirectURI])
        key.add("scope", (options.scope ?? "").split(separator: " ").map(String.init).sorted())
        key.add("params", pairs(options.params.map { ($0.name, $0.value) }))
        // Who logs in.
        key.add("form", pairs(options.form.filter { !Redactor.isSecretName($0.name) }.map { ($0.name, $0.value) }))
        for step in options.steps {
            key.add("step", [step.method.rawValue, step.url] + (step.body.map { ["body", $0] } ?? ["no body"]))
        }
        key.add("headers", pairs(options.headers.map { ($0.name.lowercased(), $0.value) }))
        key.add("submit", options.submit.map { [$0.name] + ($0.value.map { ["value", $0] } ?? ["no value"]) } ?? [])
        // The modern client profile: what the token is for (RFC 8707,
        // RFC 9396), the client key by content (RFC 7523), and the key a
        // DPoP-bound token is bound to (RFC 9449 §6: another key cannot use it).
        key.add("resource", options.resources.sorted())
        key.add("authorization-details", options.authorizationDetails.map { [$0] } ?? [])
        key.add("client-key", [try CacheFileDigest.of(options.clientKeyFile, option: .clientKey)])
        key.add("dpop-jkt", options.dpop ? [options.dpopKey?.key.thumbprint ?? ""] : [])
        return key.key(salt: salt)
    }

    /// Name/value pairs sorted by name then value, flattened: the count
    /// prefix of each value keeps `a=b` and `a` + `=b` apart.
    static func pairs(_ list: [(String, String)]) -> [String] {
        list.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.flatMap { [$0.0, $0.1] }
    }
}
