import Foundation
import Testing

/// Issue 4's bad-input table: every row is hostile or mistaken input, on the
/// command line or from the server. Each must end with its documented exit
/// code, one error line, empty stdout and no secret on stderr — never a trap,
/// a hang or a partial result. Rows run with -v so the trace is checked too.
@Suite("Bad input table")
struct BadInputTableTests {
    struct Row: Sendable, CustomTestStringConvertible {
        /// A fixture scenario, or nil for a pure command-line row.
        let scenario: String?
        /// Arguments added after the scenario's endpoints and client.
        let arguments: [String]
        let exit: Int32
        let says: String
        var stdin: String? = nil
        /// Whether AUTHCODE_CLIENT_SECRET is set for the run.
        var secretInEnvironment = true
        var testDescription: String { "\(scenario ?? "cli") \(arguments.joined(separator: " ")) → \(exit)" }
    }

    static let endpoints = ["--authorize-url", "http://127.0.0.1:9/a", "--token-url", "http://127.0.0.1:9/t"]
    static let client = ["--client-id", "demo-app", "--redirect-uri", Fixture.redirect]

    static let commandLine: [Row] = [
        Row(scenario: nil, arguments: [], exit: 2, says: "missing '--authorize-url"),
        Row(scenario: nil, arguments: endpoints, exit: 2, says: "missing '--client-id <id>'"),
        Row(scenario: nil, arguments: endpoints + ["--client-id", "x"], exit: 2, says: "missing '--redirect-uri <uri>'"),
        Row(scenario: nil, arguments: endpoints + client + ["--frobnicate"], exit: 2, says: "unknown option '--frobnicate'"),
        Row(scenario: nil, arguments: endpoints + client + ["--client-secrt", "x"], exit: 2, says: "Did you mean '--client-secret'?"),
        Row(scenario: nil, arguments: endpoints + client + ["-Z"], exit: 2, says: "unknown option '-Z'"),
        Row(scenario: nil, arguments: endpoints + client + ["stray"], exit: 2, says: "unexpected argument 'stray'"),
        Row(scenario: nil, arguments: endpoints + client + ["--scope"], exit: 2, says: "missing value for '--scope <scopes>'"),
        Row(scenario: nil, arguments: ["--authorize-url", "ftp://x/a", "--token-url", "http://127.0.0.1/t"] + client, exit: 2, says: "absolute http or https URL"),
        Row(scenario: nil, arguments: ["--authorize-url", "/relative", "--token-url", "http://127.0.0.1/t"] + client, exit: 2, says: "absolute http or https URL"),
        Row(scenario: nil, arguments: ["--authorize-url", "http://[::1/a", "--token-url", "http://127.0.0.1/t"] + client, exit: 2, says: "absolute http or https URL"),
        Row(scenario: nil, arguments: endpoints + ["--client-id", "x", "--redirect-uri", "callback"], exit: 2, says: "absolute URI without a fragment"),
        Row(scenario: nil, arguments: endpoints + ["--client-id", "x", "--redirect-uri", "http://127.0.0.1/cb#frag"], exit: 2, says: "absolute URI without a fragment"),
        Row(scenario: nil, arguments: endpoints + client + ["--pkce", "S512"], exit: 2, says: "expected one of S256, plain, off"),
        Row(scenario: nil, arguments: endpoints + client + ["--auth-method", "private_jwt"], exit: 2, says: "expected one of client_secret_basic"),
        Row(scenario: nil, arguments: endpoints + client + ["--auth-method", "private_key_jwt"], exit: 2, says: "'--auth-method private_key_jwt' needs '--client-key <file>'"),
        Row(scenario: nil, arguments: endpoints + client + ["--response-mode", "web_message"], exit: 2, says: "expected one of query, fragment, form_post"),
        Row(scenario: nil, arguments: endpoints + client + ["--method", "PUT"], exit: 2, says: "expected one of POST, GET"),
        Row(scenario: nil, arguments: endpoints + client + ["--print", "everything"], exit: 2, says: "expected one of json"),
        Row(scenario: nil, arguments: endpoints + client + ["--timeout", "abc"], exit: 2, says: "invalid value 'abc' for '--timeout'"),
        Row(scenario: nil, arguments: endpoints + client + ["--timeout", "0"], exit: 2, says: "greater than 0"),
        Row(scenario: nil, arguments: endpoints + client + ["--connect-timeout", "-1"], exit: 2, says: "'--connect-timeout'"),
        Row(scenario: nil, arguments: endpoints + client + ["--timeout", "nan"], exit: 2, says: "'--timeout'"),
        Row(scenario: nil, arguments: endpoints + client + ["--max-hops", "0"], exit: 2, says: "from 1 to 100"),
        Row(scenario: nil, arguments: endpoints + client + ["--max-hops", "99999999999999999999"], exit: 2, says: "from 1 to 100"),
        Row(scenario: nil, arguments: endpoints + client + ["--form", "wonderland"], exit: 2, says: "expected NAME=VALUE"),
        Row(scenario: nil, arguments: endpoints + client + ["--param", "=x"], exit: 2, says: "expected NAME=VALUE"),
        Row(scenario: nil, arguments: endpoints + client + ["--header", "NoColon"], exit: 2, says: "expected 'Name: value'"),
        Row(scenario: nil, arguments: endpoints + client + ["--connect-to", "a:b"], exit: 2, says: "HOST:PORT:HOST2:PORT2"),
        // One parser (HTTP/ConnectTo.swift): a port libcurl cannot use is exit 2 at parse time, not a plain-http refusal later.
        Row(scenario: nil, arguments: endpoints + client + ["--connect-to", "127.0.0.1::127.0.0.1:70000"], exit: 2,
            says: "invalid value '127.0.0.1::127.0.0.1:70000' for '--connect-to': port '70000' is not a number from 1 to 65535 (or empty: any)"),
        Row(scenario: nil, arguments: endpoints + client + ["--step", "FETCH http://127.0.0.1/x"], exit: 2, says: "'METHOD URL [BODY]'"),
        Row(scenario: nil, arguments: endpoints + client + ["--step", "POST not-a-url"], exit: 2, says: "invalid URL 'not-a-url'"),
        Row(scenario: nil, arguments: endpoints + client + ["--submit", "=x"], exit: 2, says: "expected NAME or NAME=VALUE"),
        Row(scenario: nil, arguments: endpoints + client + ["--client-secret", "@/nonexistent/secret"], exit: 2, says: "no such file"),
        Row(scenario: nil, arguments: endpoints + client + ["--client-secret", "@/tmp"], exit: 2, says: "it is a directory"),
        Row(scenario: nil, arguments: endpoints + client + ["--client-secret", "@-", "--form", "password=@-"], exit: 2,
            says: "standard input is already read", stdin: "demo-secret\n"),
        Row(scenario: nil, arguments: endpoints + client + ["--auth-method", "client_secret_post"], exit: 2, says: "needs '--client-secret <secret>'",
            secretInEnvironment: false),
        Row(scenario: nil, arguments: endpoints + client + ["--auth-method", "none", "--client-secret", "demo-secret"], exit: 2, says: "sends no secret"),
        Row(scenario: nil, arguments: endpoints + client + ["--key", "/etc/hostname"], exit: 2, says: "needs '--cert <file>'"),
        Row(scenario: nil, arguments: endpoints + client + ["-v", "-q"], exit: 2, says: "cannot be used together"),
        Row(scenario: nil, arguments: endpoints + client + ["--verbose=yes"], exit: 2, says: "takes no value"),
        Row(scenario: nil, arguments: ["--authorize-url", "http://example.invalid/a", "--token-url", "http://example.invalid/t"] + client,
            exit: 5, says: "refusing plain http to 'example.invalid'"),
    ]

    static let serverSide: [Row] = [
        Row(scenario: "error", arguments: [], exit: 4, says: "error=access_denied"),
        // State before error: an error= without our state is not believed (exit 5, text unshown).
        Row(scenario: "error-no-state", arguments: [], exit: 5, says: "has no state"),
        Row(scenario: "wrong-state", arguments: [], exit: 5, says: "state mismatch"),
        Row(scenario: "dup-code", arguments: [], exit: 5, says: "'code' more than once"),
        Row(scenario: "answer-elsewhere", arguments: [], exit: 5, says: "not the redirect_uri"),
        Row(scenario: "idtoken-wrong-aud", arguments: ["--scope", "openid"], exit: 5, says: "id_token aud"),
        Row(scenario: "idtoken-expired", arguments: ["--scope", "openid"], exit: 5, says: "id_token has expired"),
        Row(scenario: "idtoken-wrong-nonce", arguments: ["--scope", "openid"], exit: 5, says: "nonce"),
        Row(scenario: "idtoken-aud-array-no-azp", arguments: ["--scope", "openid"], exit: 5, says: "azp"),
        Row(scenario: "idtoken-bad", arguments: ["--scope", "openid"], exit: 8, says: "the id_token is not a JWT: the JWS header is not base64url"),
        Row(scenario: "no-location", arguments: [], exit: 6, says: "without a Location header"),
        Row(scenario: "bad-location", arguments: [], exit: 6, says: "not a URI"),
        Row(scenario: "loop", arguments: [], exit: 6, says: "redirect loop"),
        Row(scenario: "long-chain", arguments: [], exit: 6, says: "after 10 hops"),
        Row(scenario: "long-chain", arguments: ["--max-hops", "3"], exit: 6, says: "after 3 hops"),
        Row(scenario: "elsewhere", arguments: [], exit: 6, says: "no form"),
        Row(scenario: "non-utf8", arguments: [], exit: 6, says: "no form"),
        Row(scenario: "login-consent", arguments: [], exit: 6, says: "asks for username, password"),
        Row(scenario: "login-consent", arguments: ["--form", "username=alice", "--form", "password=wrong-password"], exit: 6, says: "login rejected"),
        Row(scenario: "login-consent", arguments: ["--form", "username=alice", "--form", "password=wonderland", "--submit", "nope"], exit: 6,
            says: "no submit control named 'nope'"),
        Row(scenario: "json-login", arguments: [], exit: 6, says: "asks for"),
        Row(scenario: "token-400", arguments: [], exit: 7, says: "invalid_grant"),
        Row(scenario: "token-401", arguments: [], exit: 7, says: "invalid_client"),
        Row(scenario: "token-500", arguments: [], exit: 7, says: "answered 500"),
        Row(scenario: "token-bad-json", arguments: [], exit: 8, says: "not a JSON object"),
        Row(scenario: "token-no-access-token", arguments: [], exit: 8, says: "no access_token"),
        Row(scenario: "token-huge", arguments: [], exit: 8, says: "larger than 4 MiB"),
        Row(scenario: "token-deep", arguments: [], exit: 8, says: "not a JSON object"),
        Row(scenario: "html-huge", arguments: [], exit: 8, says: "larger than 4 MiB"),
        Row(scenario: "token-slow", arguments: ["--timeout", "0.5"], exit: 3, says: "timed out"),
        Row(scenario: "token-stall", arguments: ["--timeout", "0.5"], exit: 3, says: "timed out"),
        Row(scenario: "token-drip", arguments: ["--timeout", "0.5"], exit: 3, says: "timed out"),
        Row(scenario: "authorize-slow", arguments: ["--timeout", "0.5"], exit: 3, says: "timed out"),
        Row(scenario: "direct", arguments: ["--print", "id_token"], exit: 8, says: "no id_token to print"),
        Row(scenario: "discovery-wrong-issuer", arguments: ["--discover"], exit: 5, says: "not '"),
        Row(scenario: "discovery-iss-missing", arguments: ["--discover"], exit: 5, says: "no iss"),
        Row(scenario: "direct", arguments: ["--discover"], exit: 8, says: "no discovery document"),
    ]

    @Test(arguments: commandLine + serverSide)
    func row(_ row: Row) async throws {
        var arguments = row.arguments
        var fixture: Fixture?
        if let scenario = row.scenario {
            let fx = try await Fixture.make("bad-\(scenario)")
            fixture = fx
            // `--discover` (a marker, not a flag) asks for --issuer instead of endpoints.
            if let marker = arguments.firstIndex(of: "--discover") {
                arguments.remove(at: marker)
                arguments = ["--issuer", fx.issuer(scenario), "--client-id", "demo-app", "--redirect-uri", Fixture.redirect] + arguments
            } else {
                arguments = fx.confidential(scenario) + arguments
            }
        }
        let result = try await run(["-v"] + arguments, env: row.secretInEnvironment ? Fixture.demoSecretEnv : [:], stdin: row.stdin, timeout: 20)
        expectFailure(result, exit: row.exit, [row.says])
        expectNoSecrets(in: result, fixture: fixture, extra: ["wrong-password"])
        #expect(!result.timedOut, "\(result)")
    }
}
