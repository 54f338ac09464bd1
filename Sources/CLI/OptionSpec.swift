import Core
import HTTP
import OAuth
import Walk
import Flow

/// One command-line option: its names, whether it takes a value, and its help
/// line. The table below is the single source for parsing, environment
/// variables, "did you mean" suggestions and `--help`.
package struct OptionSpec: Sendable, Equatable {
    let name: OptionName
    let short: Character?
    /// Placeholder shown in help and errors (`<url>`); nil for a switch.
    let valueName: String?
    let help: String
    let repeatable: Bool
    let group: Group

    enum Group: String, Sendable, CaseIterable {
        case endpoints = "ENDPOINTS"
        case client = "CLIENT"
        case request = "AUTHORIZATION REQUEST"
        case walk = "LOGIN AND CONSENT PAGES"
        case output = "OUTPUT"
        case lifecycle = "TOKEN REUSE"
        case batch = "MANY USERS"
        case transport = "TRANSPORT AND TLS"
        case general = "GENERAL"
    }

    init(_ name: OptionName, short: Character? = nil, _ valueName: String?, _ group: Group, repeatable: Bool = false, _ help: String) {
        self.name = name
        self.short = short
        self.valueName = valueName
        self.help = help
        self.repeatable = repeatable
        self.group = group
    }

    var long: String { name.rawValue }

    var takesValue: Bool { valueName != nil }

    /// `AUTHCODE_CLIENT_SECRET` for `client-secret`.
    var environmentName: String {
        "AUTHCODE_" + String(long.uppercased().map { $0 == "-" ? "_" : $0 })
    }

    /// `--client-id <id>` as used in help and error messages.
    var display: String {
        valueName.map { "--\(long) <\($0)>" } ?? "--\(long)"
    }

    /// The table: one entry per name, which the compiler checks is total.
    /// `--help` shows them in the order of `OptionName`.
    static func spec(_ name: OptionName) -> OptionSpec {
        switch name {
        case .issuer: OptionSpec(.issuer, "url", .endpoints, "discover endpoints from URL/.well-known/openid-configuration (or RFC 8414); also the expected iss")
        case .authorizeURL: OptionSpec(.authorizeURL, "url", .endpoints, "authorization endpoint (overrides discovery)")
        case .tokenURL: OptionSpec(.tokenURL, "url", .endpoints, "token endpoint (overrides discovery)")
        case .expectIss: OptionSpec(.expectIss, "issuer", .endpoints, "expected iss in the authorization response when endpoints are given by hand")
        case .clientID: OptionSpec(.clientID, "id", .client, "client identifier (required)")
        case .clientSecret: OptionSpec(.clientSecret, "secret", .client, "client secret, for confidential clients; prefer @FILE or AUTHCODE_CLIENT_SECRET")
        case .authMethod: OptionSpec(.authMethod, "method", .client, "client_secret_basic (default with a secret), client_secret_post, none (default without)")
        case .redirectURI: OptionSpec(.redirectURI, "uri", .request, "registered redirect URI (required); sent byte-for-byte, never fetched")
        case .scope: OptionSpec(.scope, "scopes", .request, "space-separated scopes, e.g. \"openid profile\"")
        case .param: OptionSpec(.param, "name=value", .request, repeatable: true, "extra authorization-request parameter (prompt=login, audience=…); repeatable")
        case .pkce: OptionSpec(.pkce, "method", .request, "S256 (default), plain or off")
        case .responseMode: OptionSpec(.responseMode, "mode", .request, "query, fragment or form_post; sent as response_mode")
        case .method: OptionSpec(.method, "method", .request, "how the authorization request is sent: POST (default; a form body with the --form values, sent again once as GET where the server refuses it, cannot walk it or copies a --form value into a URL) or GET")
        case .form: OptionSpec(.form, "name=value", .walk, repeatable: true, "field sent with a POST authorization request and filled into forms met on the way (username, password…); repeatable")
        case .totpSecret: OptionSpec(.totpSecret, "secret", .walk, "base32 TOTP seed or otpauth://totp/ URI: a fresh RFC 6238 code fills the one-time-code field of any form met")
        case .totpField: OptionSpec(.totpField, "name", .walk, "the form field that takes the TOTP code, when authcode cannot tell (it looks for autocomplete=one-time-code, then names like otp, totp, passcode)")
        case .trustOrigin: OptionSpec(.trustOrigin, "origin", .walk, repeatable: true, "another origin (https://login.example) that may receive credentials: --form values, -H headers, a replayed body; repeatable")
        case .submit: OptionSpec(.submit, "name[=value]", .walk, "which submit control to press on forms met on the way")
        case .step: OptionSpec(.step, "'method url [body]'", .walk, repeatable: true, "request sent before the authorization request, sharing cookies; a body starting with { is JSON; repeatable")
        case .maxHops: OptionSpec(.maxHops, "n", .walk, "redirects followed plus forms submitted before giving up (default 10)")
        case .print: OptionSpec(.print, "what", .output, "json (default), access_token, id_token, refresh_token, header, expires_at, exec-credential, or code (stop before the token request)")
        case .verbose: OptionSpec(.verbose, short: "v", nil, .output, "trace every hop on stderr, secrets redacted")
        case .quiet: OptionSpec(.quiet, short: "q", nil, .output, "nothing on stderr but the error line")
        case .refreshToken: OptionSpec(.refreshToken, "token", .lifecycle, "no login: redeem this refresh token (grant_type=refresh_token) and print the answer")
        case .cache: OptionSpec(.cache, nil, .lifecycle, "reuse a still-valid token between runs, refreshing it when it is stale")
        case .cacheDir: OptionSpec(.cacheDir, "dir", .lifecycle, "where --cache keeps tokens (default $XDG_CACHE_HOME/authcode, else ~/.cache/authcode)")
        case .minTTL: OptionSpec(.minTTL, "seconds", .lifecycle, "with --cache: use a cached access token only if it stays valid this long (default 60)")
        case .forget: OptionSpec(.forget, nil, .lifecycle, "delete the cached token for these settings and exit (implies --cache)")
        case .users: OptionSpec(.users, "file", .batch, "one flow per record: CSV with a header row, or JSON Lines; - is stdin; fields are --form values")
        case .parallel: OptionSpec(.parallel, "n", .batch, "with --users: flows at once (default 8)")
        case .shard: OptionSpec(.shard, "k/n", .batch, "with --users: only records k, k+n, k+2n… (1-based), so n machines split one file")
        case .header: OptionSpec(.header, short: "H", "'name: value'", .transport, repeatable: true, "header sent on every request to a trusted origin; repeatable")
        case .connectTo: OptionSpec(.connectTo, "host:port:host2:port2", .transport, repeatable: true, "connect to host2:port2 instead, keeping URL, Host and TLS name; repeatable")
        case .cacert: OptionSpec(.cacert, "file", .transport, "PEM bundle of CA certificates to trust")
        case .insecure: OptionSpec(.insecure, short: "k", nil, .transport, "do not verify TLS certificates (warns)")
        case .cert: OptionSpec(.cert, "file", .transport, "client certificate (PEM) for mutual TLS")
        case .key: OptionSpec(.key, "file", .transport, "private key (PEM) for --cert")
        case .timeout: OptionSpec(.timeout, "seconds", .transport, "per-request time limit, fractions allowed (default 30)")
        case .connectTimeout: OptionSpec(.connectTimeout, "seconds", .transport, "connection time limit, fractions allowed (default 10)")
        case .allowHTTP: OptionSpec(.allowHTTP, nil, .transport, "permit plain http to hosts that are not loopback")
        case .help: OptionSpec(.help, short: "h", nil, .general, "show this help and exit")
        case .version: OptionSpec(.version, nil, .general, "show the version and exit")
        }
    }

    static let all: [OptionSpec] = OptionName.allCases.map(spec)

    static func named(_ long: String) -> OptionSpec? {
        all.first { $0.long == long }
    }

    static func short(_ letter: Character) -> OptionSpec? {
        all.first { $0.short == letter }
    }
}
