import Foundation
import Testing

/// The OpenID RP conformance behaviours of a code-flow client, against the
/// fixture's `signed` scenario, whose tokens PyPI's `cryptography` signs:
/// every algorithm verifies with default flags, and every claim, header and
/// signature fault is exit 5 with one exact line, nothing on stdout. The
/// id_token is checked after the code is redeemed (the fixture's
/// `codes_redeemed` says 1); `jwks_fetches` shows when the keys were
/// fetched — never for a token refused on its header alone.
@Suite("Verification: id_token signatures and claims")
struct IDTokenVerificationTests {
    static let checks = "iss; aud; exp; iat; sub; nonce"

    /// Every algorithm of JOSE/JWSAlgorithm.swift, signed by the fixture;
    /// HS* with the confidential client's secret (no key set fetched).
    @Test(arguments: ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "HS256", "HS384", "HS512"])
    func everyAlgorithmVerifies(alg: String) async throws {
        let fx = try await Fixture.make()
        try fx.configure(#"{"id_token_alg":"\#(alg)"}"#)
        let hmac = alg.hasPrefix("HS")
        let result = try await run(fx.signedFlow(client: hmac ? "demo-app" : "public-app") + ["-v"], env: hmac ? Fixture.demoSecretEnv : [:])
        let token = expectTokenJSON(result)
        #expect(jwtPart(token["id_token"] as? String, 0)["alg"] as? String == alg)
        let signature = hmac ? "signature \(alg) (client secret)" : "signature \(alg) kid k1"
        #expect(traceLines(result, "id_token:") == ["* id_token: \(signature); \(Self.checks)"], "\(result)")
        let stats = try fx.stats()
        #expect(stats["codes_redeemed"] == 1 && stats["jwks_fetches"] == (hmac ? 0 : 1), "\(stats)")
        expectNoSecrets(in: result, fixture: fx)
    }

    struct Accepted: Sendable, CustomTestStringConvertible {
        let label: String
        let config: String
        var extra: [String] = []
        /// The `-v` id_token line after "signature ".
        var trace = "RS256 kid k1; iss; aud; exp; iat; sub; nonce"
        var testDescription: String { label }
    }

    static let accepted: [Accepted] = [
        Accepted(label: "no kid in the header, one key in the set (kid null)", config: #"{"kid":null}"#, trace: "RS256; iss; aud; exp; iat; sub; nonce"),
        Accepted(label: "no kid in the header, the key has one", config: #"{"id_token_faults":["header-no-kid"]}"#),
        Accepted(label: "aud as a one-element array", config: #"{"id_token_faults":["aud-array"]}"#),
        Accepted(label: "nbf in the past", config: #"{"id_token_faults":["nbf-past"]}"#, trace: "RS256 kid k1; iss; aud; exp; iat; nbf; sub; nonce"),
        Accepted(label: "an extra audience the user trusts, with azp", config: #"{"id_token_faults":["aud-extra-azp"]}"#,
                 extra: ["--trust-audience", "other-audience"], trace: "RS256 kid k1; iss; aud; azp; exp; iat; sub; nonce"),
        Accepted(label: "an extra audience the user trusts, without azp (errata 2)", config: #"{"id_token_faults":["aud-extra"]}"#,
                 extra: ["--trust-audience", "other-audience"]),
        Accepted(label: "no expires_in", config: #"{"expires_in":null}"#),
        Accepted(label: "token_type bearer", config: #"{"token_type":"bearer"}"#),
        Accepted(label: "token_type BEARER", config: #"{"token_type":"BEARER"}"#),
        Accepted(label: "the JWK names its alg and use", config: #"{"jwk_members":{"alg":"RS256","use":"sig"}}"#),
        Accepted(label: "the new key first, the old one kept, after rotation", config: #"{"jwks_rotated":true,"jwks_keep_old":true}"#,
                 trace: "RS256 kid k2; iss; aud; exp; iat; sub; nonce"),
        Accepted(label: "keys of other kinds in the set", config: #"{"jwks_extra":["p384",{"kind":"ed25519","kid":"enc","use":"enc"}]}"#),
        Accepted(label: "max_age with a recent auth_time", config: "{}", extra: ["--param", "max_age=600"],
                 trace: "RS256 kid k1; iss; aud; exp; iat; sub; nonce; auth_time"),
        Accepted(label: "an id_token alg pinned", config: #"{"id_token_alg":"PS256"}"#, extra: ["--id-token-alg", "PS256"],
                 trace: "PS256 kid k1; iss; aud; exp; iat; sub; nonce"),
        Accepted(label: "alg none when it is the one value asked for", config: #"{"id_token_alg":"none"}"#, extra: ["--id-token-alg", "none"],
                 trace: "unsigned (alg none); iss; aud; exp; iat; sub; nonce"),
    ]

    @Test(arguments: accepted)
    func accepts(_ c: Accepted) async throws {
        let fx = try await Fixture.make()
        try fx.configure(c.config)
        let result = try await run(fx.signedFlow() + c.extra + ["-v"])
        expectTokenJSON(result)
        let line = "* id_token: " + (c.trace.hasPrefix("unsigned") ? "" : "signature ") + c.trace
        #expect(traceLines(result, "id_token:") == [line], "\(result)")
        #expect(try fx.stats()["codes_redeemed"] == 1)
    }

    struct Refused: Sendable, CustomTestStringConvertible {
        let faults: [String]
        let message: String
        var exit: Int32 = 5
        var hint: String?
        /// The key set fetches the fixture counted: 0 when the header alone
        /// decided, 2 after a kid the set lacks (one refetch).
        var fetches = 1
        var config: String?
        var client = "public-app"
        var extra: [String] = []
        var testDescription: String { (config ?? faults.joined(separator: "+")) + (extra.isEmpty ? "" : " " + extra.joined(separator: " ")) }
    }

    static let audienceHint = "If the server adds an audience of its own, name it with --trust-audience."

    static let refused: [Refused] = [
        // Claims (OIDC Core §3.1.3.7), signed validly.
        Refused(faults: ["iss-missing"], message: "id_token has no iss"),
        Refused(faults: ["aud"], message: "id_token aud does not contain this client 'public-app'"),
        Refused(faults: ["aud-missing"], message: "id_token has no aud"),
        Refused(faults: ["aud-extra"], message: "id_token aud names an audience besides this client that is not trusted", hint: audienceHint),
        Refused(faults: ["aud-extra-azp"], message: "id_token aud names an audience besides this client that is not trusted", hint: audienceHint),
        Refused(faults: ["azp"], message: "id_token azp is not this client 'public-app'"),
        Refused(faults: ["exp-past"], message: "id_token has expired (exp is past, beyond 60 s of clock skew)"),
        Refused(faults: ["exp-string"], message: "id_token exp is not a finite JSON number"),
        Refused(faults: ["exp-missing"], message: "id_token has no exp"),
        Refused(faults: ["iat-future"], message: "id_token iat is in the future (beyond 60 s of clock skew)"),
        Refused(faults: ["iat-missing"], message: "id_token has no iat"),
        Refused(faults: ["nbf-future"], message: "id_token is not valid yet (nbf is in the future, beyond 60 s of clock skew)"),
        Refused(faults: ["sub-missing"], message: "id_token has no sub"),
        Refused(faults: ["sub-empty"], message: "id_token sub is not a non-empty string"),
        Refused(faults: ["sub-number"], message: "id_token sub is not a non-empty string"),
        Refused(faults: ["nonce-wrong"], message: "id_token nonce does not match the one sent in the authorization request"),
        Refused(faults: ["nonce-missing"], message: "id_token has no nonce, but the authorization request sent one"),
        Refused(faults: ["auth-time-missing"], message: "id_token has no auth_time, but max_age was sent", extra: ["--param", "max_age=600"]),
        Refused(faults: ["auth-time-old"], message: "id_token auth_time is older than max_age allows (beyond 60 s of clock skew)",
                extra: ["--param", "max_age=60"]),
        Refused(faults: ["payload-array"], message: "the id_token's payload is not a JSON object", exit: 8),
        Refused(faults: ["payload-not-json"], message: "the id_token's payload is not a JSON object", exit: 8),
        // Headers and signatures (RFC 8725 §3): refused before any key is fetched...
        Refused(faults: ["alg-none"], message: "id_token: the JWS is unsigned (alg none)", fetches: 0),
        Refused(faults: ["header-jku"], message: "id_token: the JWS header carries jku, which is refused", fetches: 0),
        Refused(faults: ["header-x5u"], message: "id_token: the JWS header carries x5u, which is refused", fetches: 0),
        Refused(faults: ["header-jwk"], message: "id_token: the JWS header carries jwk, which is refused", fetches: 0),
        Refused(faults: ["header-crit"], message: "id_token: the JWS header carries crit, which is refused", fetches: 0),
        Refused(faults: ["alg-confusion"], message: "id_token: the JWS is signed with a client secret (HMAC) and none is known", fetches: 0),
        // ...or by the keys.
        Refused(faults: ["alg-confusion"], message: "id_token: the JWS signature does not verify", fetches: 0, client: "demo-app"),
        Refused(faults: ["sig-other-key"], message: "id_token: the JWS signature does not verify"),
        Refused(faults: ["signature"], message: "id_token: the JWS signature does not verify"),
        Refused(faults: ["signature-empty"], message: "id_token: the JWS signature does not verify"),
        Refused(faults: ["kid-unknown"], message: "id_token: no key of the key set has the JWS's kid", fetches: 2),
        Refused(faults: ["signature"], message: "id_token: the JWS signature does not verify", config: #"{"id_token_alg":"ES512","id_token_faults":["signature"]}"#),
        Refused(faults: ["signature"], message: "id_token: the JWS signature does not verify", config: #"{"id_token_alg":"EdDSA","id_token_faults":["signature"]}"#),
        Refused(faults: ["signature"], message: "id_token: the JWS signature does not verify", fetches: 0,
                config: #"{"id_token_alg":"HS256","id_token_faults":["signature"]}"#, client: "demo-app"),
        Refused(faults: [], message: "id_token: the RSA key has 1024 bits, under the 2048 required", config: #"{"signing_key":"rsa1024"}"#),
        Refused(faults: [], message: "id_token: no key of the key set fits RS256", config: #"{"jwk_members":{"use":"enc"}}"#),
        Refused(faults: [], message: "id_token: no key of the key set has the JWS's kid", fetches: 2, config: #"{"jwks_fault":"empty"}"#),
        Refused(faults: [], message: "id_token: no key of the key set fits RS256", config: #"{"jwks_fault":"empty","kid":null}"#),
        // Algorithms: what the metadata lists, or what --id-token-alg pins.
        Refused(faults: [], message: "id_token: the JWS alg RS256 is not accepted (accepted: PS256, ES256)",
                hint: "The accepted algorithms come from --id-token-alg, else the server's metadata.", fetches: 0,
                config: #"{"id_token_algs_supported":["PS256","ES256"]}"#),
        Refused(faults: [], message: "id_token: the JWS alg RS256 is not accepted (accepted: ES256)",
                hint: "The accepted algorithms come from --id-token-alg, else the server's metadata.", fetches: 0, extra: ["--id-token-alg", "ES256"]),
        Refused(faults: [], message: "id_token: the JWS alg RS256 is not accepted (accepted: none)",
                hint: "The accepted algorithms come from --id-token-alg, else the server's metadata.", fetches: 0, extra: ["--id-token-alg", "none"]),
        // The key set itself.
        Refused(faults: [], message: "could not fetch the key set at {issuer}/jwks: it answered 500", exit: 3, config: #"{"jwks_fault":"500"}"#),
        Refused(faults: [], message: "could not fetch the key set at {issuer}/jwks: it answered 404", exit: 3, config: #"{"jwks_fault":"404"}"#),
        Refused(faults: [], message: "the key set at {issuer}/jwks is not usable: the key set is not JSON", exit: 8, config: #"{"jwks_fault":"not-json"}"#),
        Refused(faults: [], message: #"the key set at {issuer}/jwks is not usable: the JSON is not a key set ({"keys":[...]})"#, exit: 8,
                config: #"{"jwks_fault":"not-keyset"}"#),
        Refused(faults: [], message: #"the key set at {issuer}/jwks is not usable: the JSON is not a key set ({"keys":[...]})"#, exit: 8,
                config: #"{"jwks_fault":"keys-not-array"}"#),
        Refused(faults: [], message: #"the key set at {issuer}/jwks is not usable: the JSON is not a key set ({"keys":[...]})"#, exit: 8,
                config: #"{"jwks_fault":"array"}"#),
    ]

    @Test(arguments: refused)
    func refuses(_ c: Refused) async throws {
        let fx = try await Fixture.make()
        try fx.configure(c.config ?? #"{"id_token_faults":[\#(c.faults.map { "\"\($0)\"" }.joined(separator: ","))]}"#)
        let result = try await run(fx.signedFlow(client: c.client) + c.extra, env: c.client == "demo-app" ? Fixture.demoSecretEnv : [:])
        #expect(result.exitCode == c.exit, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        let message = c.message.replacingOccurrences(of: "{issuer}", with: fx.issuer("signed"))
        #expect(result.stderr == fx.refusedIDToken(message) + "\n" + (c.hint.map { $0 + "\n" } ?? ""), "\(result)")
        let stats = try fx.stats()
        #expect(stats["codes_redeemed"] == 1, "the id_token is checked after the code is redeemed: \(stats)")
        if c.exit == 5 { #expect(stats["jwks_fetches"] == c.fetches, "\(stats)") }
        // A key the token brings itself is never fetched.
        #expect(try !fx.hits().contains { $0.path.hasSuffix("/attacker-jwks") || $0.path.hasSuffix("/attacker.pem") })
        for value in ["evil.example", "other-client", "other-audience", "mallory", "wrong-"] {
            #expect(!result.stderr.contains(value), "a claim's value is never quoted\n\(result)")
        }
        expectNoSecrets(in: result, fixture: fx, extra: c.client == "demo-app" ? ["demo-secret"] : [])
    }

    /// The issuer the id_token must name: --issuer (the metadata's), and
    /// with endpoints by hand the authorization response's checked iss.
    @Test func issuerOfAnotherServerIsRefused() async throws {
        let fx = try await Fixture.make()
        try fx.configure(#"{"id_token_faults":["iss"]}"#)
        let discovered = try await run(fx.signedFlow())
        #expect(discovered.stderr == fx.refusedIDToken("id_token iss is not the expected issuer '\(fx.issuer("signed"))'") + "\n", "\(discovered)")
        let byHand = try await run(fx.endpoints("signed") + ["--client-id", "public-app", "--redirect-uri", Fixture.redirect, "--scope", "openid"])
        #expect(byHand.exitCode == 5, "\(byHand)")
        #expect(byHand.stderr == fx.refusedIDToken("id_token iss is not the expected issuer '\(fx.issuer("signed"))'") + "\n",
                "the authorization response's iss, once checked, is the expected issuer\n\(byHand)")
        #expect(try fx.stats()["codes_redeemed"] == 2)
    }

    /// Rotation: keys fetched once per run, plus once when a token names a
    /// kid the set lacks. The JARM answer (signed before the first fetch)
    /// uses the old key; the id_token (signed after it) the new one.
    @Test func rotationFetchesTheKeysOnceMore() async throws {
        let fx = try await Fixture.make()
        try fx.configure(#"{"jwks_rotate_after":1}"#)
        let result = try await run(fx.signedFlow() + ["--response-mode", "jwt", "-v"])
        expectTokenJSON(result)
        #expect(traceLines(result, "JARM response:") == ["* JARM response: signature RS256 kid k1; iss; aud; exp"], "\(result)")
        #expect(traceLines(result, "a token names a kid") == ["* a token names a kid the key set lacks: fetching the key set again (key rotation)"])
        #expect(traceLines(result, "id_token:") == ["* id_token: signature RS256 kid k2; \(Self.checks)"], "\(result)")
        #expect(try fx.stats()["jwks_fetches"] == 2)
    }

    /// With --cache the key set is kept in the cache directory: the next
    /// run fetches nothing, until a token names a kid it lacks.
    @Test func keptKeySetSavesTheFetchUntilAnUnknownKid() async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        let first = try await run(fx.signedFlow() + cache.flags + ["-v"])
        expectTokenJSON(first)
        #expect(try fx.stats()["jwks_fetches"] == 1)
        let kept = cache.files(".json")
        #expect(kept.count == 1 && kept[0].contains("/jwks-"), "\(kept)")
        let attributes = try FileManager.default.attributesOfItem(atPath: kept[0])
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(!(try String(contentsOfFile: kept[0], encoding: .utf8)).contains(fx.issuer("signed")), "named and filled by the key set, not the URL")
        // Another login (another scope: another token entry), the same keys.
        let second = try await run(fx.signedFlow(scope: "openid profile") + cache.flags + ["-v"])
        expectTokenJSON(second)
        #expect(traceLines(second, "key set from the cache").count == 1, "\(second)")
        #expect(try fx.stats()["jwks_fetches"] == 1, "no fetch within the hour")
        // The server rotates: the kept set lacks the new kid, fetched once.
        try fx.configure(#"{"jwks_rotated":true}"#)
        let third = try await run(fx.signedFlow(scope: "openid email") + cache.flags + ["-v"])
        expectTokenJSON(third)
        #expect(traceLines(third, "id_token:") == ["* id_token: signature RS256 kid k2; \(Self.checks)"], "\(third)")
        #expect(try fx.stats()["jwks_fetches"] == 2)
        // A link planted at the kept set's path is refused like any cache file.
        try FileManager.default.removeItem(atPath: kept[0])
        try FileManager.default.createSymbolicLink(atPath: kept[0], withDestinationPath: "/etc/passwd")
        let planted = try await run(fx.signedFlow(scope: "openid address") + cache.flags)
        expectFailure(planted, exit: 2, ["the kept key set '\(kept[0])' is a symbolic link; refusing to follow it"])
    }

    /// Endpoints by hand, no --issuer and no --jwks: no keys can be known, so
    /// the signature of the token endpoint's id_token is not checked, every
    /// claim is, and -v says so. A pinned key set verifies it.
    @Test func withoutKeysTheSignatureIsNotCheckedAndSaidSo() async throws {
        let fx = try await Fixture.make()
        let byHand = fx.endpoints("signed") + ["--client-id", "public-app", "--redirect-uri", Fixture.redirect, "--scope", "openid", "-v"]
        let none = try await run(byHand)
        expectTokenJSON(none)
        #expect(traceLines(none, "id_token:") == ["* id_token: signature not checked: no keys (give --issuer or --jwks); \(Self.checks)"], "\(none)")
        // A claim rule still holds.
        try fx.configure(#"{"id_token_faults":["nonce-wrong"]}"#)
        let wrongNonce = try await run(byHand)
        expectFailure(wrongNonce, exit: 5, ["id_token nonce does not match"])
        // A key set from a file, or its URL: checked.
        try fx.configure(#"{"id_token_faults":["signature"]}"#)
        let keys = try TempFile(try fx.keySet())
        let pinnedFile = try await run(byHand + ["--jwks", keys.path])
        #expect(pinnedFile.stderr.hasSuffix(fx.refusedIDToken("id_token: the JWS signature does not verify") + "\n"), "\(pinnedFile)")
        try fx.configure("{}")
        let goodFile = try await run(byHand + ["--jwks", keys.path])
        expectTokenJSON(goodFile)
        #expect(traceLines(goodFile, "id_token:") == ["* id_token: signature RS256 kid k1; \(Self.checks)"], "\(goodFile)")
        let before = try fx.stats()["jwks_fetches"] ?? -1
        let goodURL = try await run(byHand + ["--jwks", fx.issuer("signed") + "/jwks"])
        expectTokenJSON(goodURL)
        #expect(try fx.stats()["jwks_fetches"] == before + 1)
        // --jwks wins over the metadata's jwks_uri.
        try fx.configure(#"{"metadata":{"jwks_uri":"\#(fx.issuer("signed"))/nowhere"}}"#)
        let wins = try await run(fx.signedFlow() + ["--jwks", "@" + keys.path])
        expectTokenJSON(wins)
        // Pinning an algorithm asks for a check even without keys.
        let pinned = try await run(Array(byHand.dropLast()) + ["--id-token-alg", "RS256"])
        #expect(pinned.stderr == fx.refusedIDToken("id_token: no keys to verify its RS256 signature with") + "\nGive --issuer (its jwks_uri) or --jwks.\n",
                "\(pinned)")
    }

    /// Metadata without jwks_uri: no keys known, as with endpoints by hand.
    @Test func metadataWithoutJWKSURI() async throws {
        let fx = try await Fixture.make()
        try fx.configure(#"{"metadata":{"jwks_uri":null}}"#)
        let result = try await run(fx.signedFlow() + ["-v"])
        expectTokenJSON(result)
        #expect(traceLines(result, "id_token:") == ["* id_token: signature not checked: no keys (give --issuer or --jwks); \(Self.checks)"])
        #expect(try fx.stats()["jwks_fetches"] == 0)
    }

    /// A batch fetches the keys once for all its flows.
    @Test func aBatchFetchesTheKeysOnce() async throws {
        let fx = try await Fixture.make()
        let users = try TempFile("username\nu1\nu2\nu3\nu4\nu5\n")
        let result = try await run(fx.signedFlow() + ["--users", users.path, "--parallel", "3", "--print", "claims"])
        #expect(result.exitCode == 0, "\(result)")
        // Each record a flow of its own: its own nonce in its own verified id_token.
        let nonces = result.stdout.split(separator: "\n").compactMap { jsonObject(String($0))?["nonce"] as? String }
        #expect(nonces.count == 5 && Set(nonces).count == 5, "\(result)")
        #expect(try fx.stats()["jwks_fetches"] == 1)
    }

    /// With openid in the scope a code-grant answer must carry an id_token.
    @Test func openidWithoutIDTokenIsExit8() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("token-control") + ["--scope", "openid"])
        expectFailure(result, exit: 8, [])
        #expect(result.errorLine == "authcode: error: the code was redeemed, but the token response was refused: the token response has no id_token, but the scope has openid (OIDC Core §3.1.3.3) (\(fx.issuer("token-control"))/token)",
                "\(result)")
    }

    /// `--print claims`: the verified payload, one JSON line, for jq.
    @Test func printClaims() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.signedFlow() + ["--param", "sub=bob"] + ["--print", "claims"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.hasSuffix("}\n") && result.stdout.filter { $0 == "\n" }.count == 1, "\(result)")
        let claims = try #require(jsonObject(result.stdout), "\(result)")
        #expect(claims["sub"] as? String == "bob" && claims["iss"] as? String == fx.issuer("signed") && claims["aud"] as? String == "public-app")
        #expect((claims["nonce"] as? String)?.isEmpty == false)
        // Without openid no id_token comes: refused before any request (issue 31 item 5).
        let before = try fx.hits().count
        let noOpenID = try await run(fx.signedFlow(scope: "profile") + ["--print", "claims"])
        expectFailure(noOpenID, exit: 2, [])
        #expect(noOpenID.errorLine == "authcode: error: '--print claims' prints the id_token's claims, and without openid in '--scope <scopes>' the server issues no id_token",
                "\(noOpenID)")
        #expect(try fx.hits().count == before, "nothing was sent")
    }
}
