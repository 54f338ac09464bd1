import Core
import HTTP
import JOSE
import OAuth
import Walk
import Flow

/// The option table: every option, declared once (`OptionDeclaration`), in
/// the order `--help` shows them. Rules between options live in
/// `OptionRules`; nothing else names an option. Built once per process
/// (declarations and their key paths are `Sendable` values), and looked up
/// through its index (OptionIndex.swift).
package enum OptionTable {
    package static let all: [OptionDeclaration] =
        endpoints + client + request + profile + walk + output + verification + lifecycle + batch + transport + general

    /// Every name (long, alias, short) to its declaration.
    package static let index = OptionIndex(all)

    /// The declaration of `--name` (an alias too), if any.
    package static func named(_ long: String) -> OptionDeclaration? {
        index.named(long)
    }

    package static func short(_ letter: Character) -> OptionDeclaration? {
        index.short(letter)
    }

    /// The declaration that fills a setting, for messages (`--client-id <id>`).
    static func declaration(for keyPath: PartialKeyPath<Options>) -> OptionDeclaration? {
        index.declaration(for: keyPath)
    }

    /// The option that fills a setting as typed (`--allow-http`), for
    /// messages and hints: what no layer below the CLI spells.
    static func flag(_ keyPath: PartialKeyPath<Options>) -> String {
        declaration(for: keyPath).map { "--" + $0.long } ?? "?"
    }

    /// Its short form where it has one (`-H`), else its long one.
    static func shortFlag(_ keyPath: PartialKeyPath<Options>) -> String {
        guard let declaration = declaration(for: keyPath) else { return "?" }
        return declaration.short.map { "-\($0)" } ?? "--" + declaration.long
    }

    static var endpoints: [OptionDeclaration] {
        [
            .value("issuer", "url", \.flow.server.issuer, .endpoints, kind: .url,
                   "discover endpoints from URL/.well-known/openid-configuration (or RFC 8414); also the expected iss. A discovery document's own URL names its issuer",
                   parse: OptionValues.issuer),
            .value("authorize-url", "url", \.flow.server.authorizeURL, .endpoints, kind: .url,
                   "authorization endpoint (overrides discovery)", parse: OptionValues.url),
            .value("token-url", "url", \.flow.server.tokenURL, .endpoints, kind: .url,
                   "token endpoint (overrides discovery)", parse: OptionValues.url),
            .value("expect-iss", "issuer", \.flow.server.expectIss, .endpoints, kind: .url,
                   "expected iss in the authorization response when endpoints are given by hand", parse: OptionValues.text),
        ]
    }

    static var client: [OptionDeclaration] {
        [
            .value("client-id", "id", \.flow.client.id, .client, "client identifier (required)", showDefault: { _ in "" },
                   parse: OptionValues.text).withoutDefault,
            .value("client-secret", "secret", \.flow.client.secret, .client,
                   "client secret, for confidential clients; prefer @FILE or AUTHCODE_CLIENT_SECRET", parse: OptionValues.nonEmpty)
                .secret(.always),
            .choice("auth-method", "method", \.flow.client.authMethod, .client,
                    "how the client authenticates at the token and PAR endpoints: private_key_jwt by default with --client-key, client_secret_basic with a secret, none without",
                    showDefault: false),
        ]
    }

    static var request: [OptionDeclaration] {
        [
            .value("redirect-uri", "uri", \.flow.client.redirectURI, .request, kind: .url,
                   "registered redirect URI (required); sent byte-for-byte, never fetched", showDefault: { _ in "" },
                   parse: OptionValues.redirectURI).withoutDefault,
            .value("scope", "scopes", \.flow.request.scope, .request, "space-separated scopes, e.g. \"openid profile\"", parse: OptionValues.text),
            .list("param", "name=value", \.flow.request.params, .request, files: .byParser,
                  "extra authorization-request parameter (prompt=login, audience=…); repeatable", parse: OptionValues.pair)
                .secret(.named(separator: "=", fileValue: true)),
            .choice("pkce", "method", \.flow.request.pkce, .request, "PKCE (RFC 7636) code challenge method"),
            .choice("response-mode", "mode", \.flow.request.responseMode, .request, "sent as response_mode; where the answer is looked for"),
            .choice("method", "method", \.flow.request.method, .request,
                    "how the authorization request is sent: POST is a form body with the --form values, sent again once as GET where the server refuses it, cannot walk it or copies a --form value into a URL"),
        ]
    }

    /// RFC 7523, 9126, 9101, 9449, 8707, 9396, 8705 and FAPI 2.0
    /// (OptionRules+Profile.swift has their rules).
    static var profile: [OptionDeclaration] {
        [
            .value("client-key", "file", \.commandLine.clientKeyFile, .profile, kind: .file, files: .byParser,
                   "private key (PEM PKCS#8, PKCS#1 or SEC1, or a JWK or JWK Set with d) that signs client assertions (private_key_jwt) and request objects",
                   parse: OptionValues.nonEmpty),
            .value("client-key-id", "kid", \.flow.profile.clientKeyID, .profile,
                   "kid in the header of what the client key signs (default: the JWK's kid, else its RFC 7638 thumbprint); picks the key of a JWK Set",
                   parse: OptionValues.nonEmpty),
            .choice("client-key-alg", "alg", \.flow.profile.clientKeyAlg, .profile,
                    "signing algorithm of the client key (default: the key's: RS256 for RSA, PS256 under --fapi2, ES256/ES384/ES512 by curve, EdDSA); HS* for client_secret_jwt"),
            .value("assertion-aud", "issuer|endpoint|url", \.flow.profile.assertionAud, .profile,
                   "aud of client assertions: the issuer (default when known, else the token endpoint URL), the URL of the endpoint receiving each one, or this URL",
                   parse: OptionValues.assertionAudience),
            .flag("par", \.flow.profile.par, .profile,
                  "push the authorization request to the PAR endpoint first (RFC 9126); on by itself when the metadata requires it"),
            .flag("request-object", \.flow.profile.requestObject, .profile,
                  "send the authorization parameters as a signed request object (RFC 9101), pushed with --par"),
            .flag("dpop", \.commandLine.dpop, .profile, "sender-constrain tokens with DPoP proofs (RFC 9449), with a fresh P-256 key per run"),
            .value("dpop-key", "file", \.commandLine.dpopKeyFile, .profile, kind: .file, files: .byParser,
                   "DPoP with this kept key (PEM or JWK; implies --dpop): needed to use or cache a bound token across runs",
                   parse: OptionValues.nonEmpty),
            .value("dpop-for", "'method url'", \.flow.profile.dpopFor, .profile,
                   "with --print header: add a DPoP proof line for this request, for curl -H @-", parse: OptionValues.dpopTarget),
            .value("dpop-nonce", "nonce", \.flow.profile.dpopNonce, .profile,
                   "a resource server's DPoP-Nonce (RFC 9449) for the --dpop-for or --call proof", parse: OptionValues.dpopNonce),
            .list("resource", "uri", \.flow.profile.resources, .profile, kind: .url,
                  "resource indicator (RFC 8707) for the authorization, PAR and token requests; repeatable", parse: OptionValues.resource),
            .value("authorization-details", "json", \.flow.profile.authorizationDetails, .profile,
                   "RFC 9396 authorization details: a JSON array of objects with a string type; @FILE works",
                   parse: OptionValues.authorizationDetails),
            .list("front-param", "name=value", \.flow.profile.frontParams, .profile, files: .byParser,
                  "authorization parameter also sent on the front-channel request when it is pushed or signed (Glewlwyd's g_continue); repeatable",
                  parse: OptionValues.pair),
            .flag("fapi2", \.flow.profile.fapi2, .profile,
                  "the FAPI 2.0 Security Profile: PAR, PKCE S256, iss required, private_key_jwt or mTLS, DPoP unless mTLS, PS256/ES256/EdDSA; contradicting options are refused"),
        ]
    }

    static var walk: [OptionDeclaration] {
        [
            .list("form", "name=value", \.flow.walk.form, .walk, files: .byParser,
                   "field filled into forms met on the way, never sent in the authorization request (that is --param); username and password also fill a login form's own identifier and password fields; repeatable",
                  parse: OptionValues.pair).secret(.named(separator: "=", fileValue: true)),
            .value("totp-secret", "secret", \.flow.walk.totpSecret, .walk,
                   "base32 TOTP seed or otpauth://totp/ URI: a fresh RFC 6238 code fills the one-time-code field of any form met",
                   parse: OptionValues.totpSeed).secret(.always),
            .value("totp-field", "name", \.flow.walk.totpField, .walk,
                   "the form field that takes the TOTP code, when authcode cannot tell (it looks for autocomplete=one-time-code, then names like otp, totp, passcode)",
                   parse: OptionValues.text),
            .value("passkey", "file", \.flow.walk.passkeyFile, .walk, kind: .file, files: .byParser,
                   "a software passkey: the WebAuthn credential (JSON, mode 0600) that answers a login's passkey challenge; rewritten with the new signCount after each use",
                   parse: OptionValues.nonEmpty),
            .flag("passkey-register", \.flow.walk.passkeyRegister, .walk,
                  "with --passkey: where a login asks to register a passkey and FILE does not exist yet, make one and save it there"),
            .list("trust-origin", "origin", \.flow.walk.trustOrigins, .walk, kind: .url,
                  "another origin (https://login.example) that may receive credentials: --form values, -H headers, a replayed body; repeatable",
                  parse: OptionValues.origin),
            .value("submit", "name[=value]", \.flow.walk.submit, .walk, "which submit control to press on forms met on the way",
                   parse: OptionValues.submit),
            .list("step", "'method url [body]'", \.flow.walk.steps, .walk, files: .byParser,
                  "request sent before the authorization request, sharing cookies; a body starting with { is JSON; repeatable",
                  parse: OptionValues.step).secret(.body),
            .value("max-hops", "n", \.flow.walk.maxHops, .walk, kind: .number,
                   "redirects followed plus forms submitted (a login driver's answers count; its reads do not) before giving up", parse: OptionValues.integer(in: 1...100)),
            .choice("idp", "name", \.flow.walk.idp, .walk,
                    "the login driver for a provider whose login is a script or needs its page knowledge (auto: told by the pages; none: HTML forms only)"),
        ]
    }

    static var output: [OptionDeclaration] {
        [
            .choice("print", "what", \.flow.output.print, .output,
                    "what goes to stdout: the token JSON, one of its fields, an Authorization header, the expiry, a kubectl ExecCredential, the code (stop before the token request), the verified id_token's claims or the userinfo answer"),
            .value("call", "'method url [body]'", \.flow.call.request, .output, files: .byParser,
                   "after the token is had, send this request with it and print the answer's body (exit 10 when it is 400 or more); a body starting with { is JSON",
                   parse: OptionValues.step).secret(.body),
            .value("output", short: "o", "file", \.commandLine.outputFile, .output, kind: .file, files: .byParser,
                   "write the result to FILE instead of stdout (with --users the JSON Lines): created 0600, whole or not at all",
                   parse: OptionValues.nonEmpty),
            .flag("verbose", short: "v", \.commandLine.verbose, .output, "trace every hop on stderr, secrets redacted"),
            .flag("quiet", short: "q", \.commandLine.quiet, .output, "nothing on stderr but the error line"),
        ]
    }

    /// What is verified and against what (OIDC Core §3.1.3.7, JARM, §5.3).
    static var verification: [OptionDeclaration] {
        [
            .value("jwks", "file|url", \.flow.verification.jwks, .verification, kind: .file,
                   "the issuer's key set (a JWK Set file, or its http(s) URL); wins over the metadata's jwks_uri",
                   parse: OptionValues.keySet),
            .value("id-token-alg", "alg[,alg…]", \.flow.verification.idTokenAlgs, .verification,
                   "the only algorithms an id_token may be signed with (else the metadata's, else every asymmetric one); none only alone, for a client registered for unsigned id_tokens",
                   parse: OptionValues.algorithms),
            .list("trust-audience", "aud", \.flow.verification.trustAudiences, .verification,
                  "an audience an id_token may name besides this client (some servers add their own); repeatable", parse: OptionValues.nonEmpty),
            .value("clock-skew", "seconds", \.flow.verification.clockSkew, .verification, kind: .number,
                   "clock difference tolerated on exp, iat, nbf and auth_time", showDefault: Self.seconds, parse: OptionValues.skew),
            .flag("userinfo", \.flow.verification.userinfo, .verification,
                  "after the token, ask the userinfo endpoint with it and check its sub against the id_token's (implied by --print userinfo)"),
        ]
    }

    static var lifecycle: [OptionDeclaration] {
        [
            .value("refresh-token", "token", \.flow.request.refreshToken, .lifecycle,
                   "no login: redeem this refresh token (grant_type=refresh_token) and print the answer", parse: OptionValues.nonEmpty)
                .secret(.always),
            .flag("cache", \.flow.cache.enabled, .lifecycle, "reuse a still-valid token between runs, refreshing it when it is stale"),
            .value("cache-dir", "dir", \.flow.cache.directory, .lifecycle, kind: .directory,
                   "where --cache keeps tokens (default $XDG_CACHE_HOME/authcode, else ~/.cache/authcode)", parse: OptionValues.nonEmpty),
            .value("min-ttl", "seconds", \.flow.cache.minTTL, .lifecycle, kind: .number,
                   "with --cache: use a cached access token only if it stays valid this long",
                   parse: OptionValues.integer(in: 0...31_536_000)),
            .flag("forget", \.flow.cache.forget, .lifecycle, "delete the cached token for these settings and exit (implies --cache)"),
        ]
    }

    static var batch: [OptionDeclaration] {
        [
            .value("users", "file", \.batch.input, .batch, kind: .file, files: .byParser,
                   "one flow per record: CSV with a header row, or JSON Lines; - is stdin; fields are --form values",
                   parse: OptionValues.text),
            .value("parallel", "n", \.batch.parallel, .batch, kind: .number, "with --users: flows at once",
                   parse: OptionValues.integer(in: 1...256)),
            .value("shard", "k/n", \.batch.shard, .batch,
                   "with --users: only records k, k+n, k+2n… (1-based), so n machines split one file", parse: OptionValues.shard),
        ]
    }

    static var transport: [OptionDeclaration] {
        [
            .list("header", short: "H", "'name: value'", \.flow.connection.headers, .transport,
                  "header sent on every request to a trusted origin; repeatable", parse: OptionValues.header)
                .secret(.named(separator: ":", fileValue: false)),
            .list("connect-to", "host:port:host2:port2", \.flow.connection.transport.connectTo, .transport,
                  "connect to host2:port2 instead, keeping URL, Host and TLS name; repeatable", parse: OptionValues.connectTo),
            .value("cacert", "file", \.flow.connection.transport.cacert, .transport, kind: .file, "PEM bundle of CA certificates to trust",
                   parse: OptionValues.readableFile),
            .flag("insecure", short: "k", \.flow.connection.transport.insecure, .transport, "do not verify TLS certificates (warns)"),
            .value("cert", "file", \.flow.connection.transport.cert, .transport, kind: .file, "client certificate (PEM) for mutual TLS",
                   parse: OptionValues.readableFile),
            .value("key", "file", \.flow.connection.transport.key, .transport, kind: .file, "private key (PEM) for --cert", parse: OptionValues.readableFile),
            .value("timeout", "seconds", \.flow.connection.transport.timeout, .transport, kind: .number, appliesFirst: true,
                   "per-request time limit, fractions allowed", showDefault: Self.seconds, parse: OptionValues.seconds),
            .value("connect-timeout", "seconds", \.flow.connection.transport.connectTimeout, .transport, kind: .number,
                   "connection time limit, fractions allowed", showDefault: Self.seconds, parse: OptionValues.seconds),
            .flag("allow-http", \.flow.connection.allowHTTP, .transport, "permit plain http to hosts that are not loopback"),
            .value("proxy", "url", \.commandLine.proxyURL, .transport, kind: .url,
                   "send requests through this proxy (http, https or socks5h); wins over https_proxy, http_proxy and all_proxy",
                   parse: OptionValues.proxy).secret(.urlCredentials),
            .value("noproxy", "list", \.commandLine.noProxy, .transport,
                   "comma-separated hosts (and .domains, * for all) reached without a proxy; wins over no_proxy",
                   parse: OptionValues.text),
        ]
    }

    static var general: [OptionDeclaration] {
        [
            .list("config", short: "K", "file", \.commandLine.configFiles, .general, kind: .file, files: .byParser,
                  "read options from FILE, one per line in curl's syntax (name value, # comments); repeatable; the command line and AUTHCODE_* win",
                  parse: OptionValues.nonEmpty).namingConfigFiles,
            .choice("completion", "shell", \.commandLine.completion, .general, "print a completion script for the shell and exit").answering,
            .flag("help", short: "h", \.commandLine.help, .general, "show this help and exit").answering,
            .flag("version", \.commandLine.version, .general, "show the version, commit, libcurl and TLS library and exit").answering,
        ]
    }

    /// `30`, not `30.0`.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : "\(value)"
    }
}
