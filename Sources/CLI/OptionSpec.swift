import Core
import HTTP
import OAuth
import Walk
import Flow

/// One command-line option: its names, whether it takes a value, and its help
/// line. The table below is the single source for parsing, environment
/// variables, "did you mean" suggestions and `--help`.
package struct OptionSpec: Sendable, Equatable {
    let long: String
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
        case transport = "TRANSPORT AND TLS"
        case general = "GENERAL"
    }

    init(_ long: String, short: Character? = nil, _ valueName: String?, _ group: Group, repeatable: Bool = false, _ help: String) {
        self.long = long
        self.short = short
        self.valueName = valueName
        self.help = help
        self.repeatable = repeatable
        self.group = group
    }

    var takesValue: Bool { valueName != nil }

    /// `AUTHCODE_CLIENT_SECRET` for `client-secret`.
    var environmentName: String {
        "AUTHCODE_" + String(long.uppercased().map { $0 == "-" ? "_" : $0 })
    }

    /// `--client-id <id>` as used in help and error messages.
    var display: String {
        valueName.map { "--\(long) <\($0)>" } ?? "--\(long)"
    }

    static let all: [OptionSpec] = [
        OptionSpec("issuer", "url", .endpoints, "discover endpoints from URL/.well-known/openid-configuration (or RFC 8414); also the expected iss"),
        OptionSpec("authorize-url", "url", .endpoints, "authorization endpoint (overrides discovery)"),
        OptionSpec("token-url", "url", .endpoints, "token endpoint (overrides discovery)"),
        OptionSpec("expect-iss", "issuer", .endpoints, "expected iss in the authorization response when endpoints are given by hand"),
        OptionSpec("client-id", "id", .client, "client identifier (required)"),
        OptionSpec("client-secret", "secret", .client, "client secret, for confidential clients; prefer @FILE or AUTHCODE_CLIENT_SECRET"),
        OptionSpec("auth-method", "method", .client, "client_secret_basic (default with a secret), client_secret_post, none (default without)"),
        OptionSpec("redirect-uri", "uri", .request, "registered redirect URI (required); sent byte-for-byte, never fetched"),
        OptionSpec("scope", "scopes", .request, "space-separated scopes, e.g. \"openid profile\""),
        OptionSpec("param", "name=value", .request, repeatable: true, "extra authorization-request parameter (prompt=login, audience=…); repeatable"),
        OptionSpec("pkce", "method", .request, "S256 (default), plain or off"),
        OptionSpec("response-mode", "mode", .request, "query, fragment or form_post; sent as response_mode"),
        OptionSpec("method", "method", .request, "POST (default, form body) or GET (query) for the authorization request"),
        OptionSpec("form", "name=value", .walk, repeatable: true, "field sent with a POST authorization request and filled into forms met on the way (username, password…); repeatable"),
        OptionSpec("submit", "name[=value]", .walk, "which submit control to press on forms met on the way"),
        OptionSpec("step", "'method url [body]'", .walk, repeatable: true, "request sent before the authorization request, sharing cookies; a body starting with { is JSON; repeatable"),
        OptionSpec("max-hops", "n", .walk, "redirects followed plus forms submitted before giving up (default 10)"),
        OptionSpec("print", "what", .output, "json (default), access_token, id_token, refresh_token, or code (stop before the token request)"),
        OptionSpec("verbose", short: "v", nil, .output, "trace every hop on stderr, secrets redacted"),
        OptionSpec("quiet", short: "q", nil, .output, "nothing on stderr but the error line"),
        OptionSpec("header", short: "H", "'name: value'", .transport, repeatable: true, "header sent on every request; repeatable"),
        OptionSpec("connect-to", "host:port:host2:port2", .transport, repeatable: true, "connect to host2:port2 instead, keeping URL, Host and TLS name; repeatable"),
        OptionSpec("cacert", "file", .transport, "PEM bundle of CA certificates to trust"),
        OptionSpec("insecure", short: "k", nil, .transport, "do not verify TLS certificates (warns)"),
        OptionSpec("cert", "file", .transport, "client certificate (PEM) for mutual TLS"),
        OptionSpec("key", "file", .transport, "private key (PEM) for --cert"),
        OptionSpec("timeout", "seconds", .transport, "per-request time limit, fractions allowed (default 30)"),
        OptionSpec("connect-timeout", "seconds", .transport, "connection time limit, fractions allowed (default 10)"),
        OptionSpec("allow-http", nil, .transport, "permit plain http to hosts that are not loopback"),
        OptionSpec("help", short: "h", nil, .general, "show this help and exit"),
        OptionSpec("version", nil, .general, "show the version and exit"),
    ]

    static func named(_ long: String) -> OptionSpec? {
        all.first { $0.long == long }
    }

    static func short(_ letter: Character) -> OptionSpec? {
        all.first { $0.short == letter }
    }
}
