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
    package static func make(_ settings: FlowSettings, salt: [UInt8]) throws(CacheError) -> String {
        var key = CacheKeyBuilder()
        // Who mints it.
        key.add("issuer", [settings.server.issuer ?? settings.server.tokenURL ?? ""])
        key.add("authorize-url", [settings.server.authorizeURL ?? ""])
        key.add("token-url", [settings.server.tokenURL ?? ""])
        key.add("connect-to", settings.connection.transport.connectTo.map(\.text))
        // Which client asks, and how it proves itself (never the secret).
        key.add("client-id", [settings.client.id])
        key.add("client-auth", [settings.client.authMethod.rawValue])
        key.add("client-certificate", [try CacheFileDigest.of(settings.connection.transport.cert, option: .certificate)])
        key.add("client-certificate-key", [try CacheFileDigest.of(settings.connection.transport.key, option: .certificateKey)])
        // What it asks for. Order does not change the grant.
        key.add("redirect-uri", [settings.client.redirectURI])
        key.add("scope", (settings.request.scope ?? "").split(separator: " ").map(String.init).sorted())
        key.add("params", pairs(settings.request.params.map { ($0.name, $0.value) }))
        // Who logs in.
        key.add("form", pairs(settings.walk.form.filter { !Redactor.isSecretName($0.name) }.map { ($0.name, $0.value) }))
        for step in settings.walk.steps {
            key.add("step", [step.method.rawValue, step.url] + (step.body.map { ["body", $0] } ?? ["no body"]))
        }
        key.add("headers", pairs(settings.connection.headers.map { ($0.name.lowercased(), $0.value) }))
        key.add("submit", settings.walk.submit.map { [$0.name] + ($0.value.map { ["value", $0] } ?? ["no value"]) } ?? [])
        // A passkey names the account it logs in to (a passwordless login
        // has no username): its site and user handle, never its key or
        // count. Only with --passkey, so other runs keep their entries.
        if settings.walk.passkeyFile != nil {
            key.add("passkey", settings.walk.passkey.map { [$0.rpID, Base64URL.encode($0.userHandle)] } ?? ["not made yet"])
        }
        // The modern client profile: what the token is for (RFC 8707,
        // RFC 9396), the client key by content (RFC 7523), and the key a
        // DPoP-bound token is bound to (RFC 9449 §6: another key cannot use it).
        key.add("resource", settings.profile.resources.sorted())
        key.add("authorization-details", settings.profile.authorizationDetails.map { [$0] } ?? [])
        key.add("client-key", [try CacheFileDigest.of(settings.profile.clientKey?.path, option: .clientKey)])
        key.add("dpop-jkt", settings.profile.dpop.map { [$0.kept?.key.thumbprint ?? ""] } ?? [])
        return key.key(salt: salt)
    }

    /// Name/value pairs sorted by name then value, flattened: the count
    /// prefix of each value keeps `a=b` and `a` + `=b` apart.
    static func pairs(_ list: [(String, String)]) -> [String] {
        list.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.flatMap { [$0.0, $0.1] }
    }
}
