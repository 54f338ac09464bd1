import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import CLI

/// Exit 2 (usage), `--help`, `--completion` (README.md "Options" and "Exit
/// codes"): decided before any request, so each run asserts that nothing
/// was sent. Moved from EndToEndTests/UsageTests and the command-line rows of
/// EndToEndTests/BadInputTableTests, and CLITests/HelpTests' run test.
struct UsageRunTests {
    static let redirect = ScriptedServer.redirect
    static let valid = ["--authorize-url", "http://127.0.0.1:9/t/usage/direct/authorize", "--token-url", "http://127.0.0.1:9/t/usage/direct/token",
                        "--client-id", "demo-app", "--redirect-uri", redirect]

    /// A usage error's two lines: the error, then the way to help.
    static func usage(_ message: String, hint: String = "See 'authcode --help'.") -> String {
        "authcode: error: \(message)\n\(hint)\n"
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let args: [String]
        var env: [String: String] = [:]
        var stdin: String?
        var exit = ExitCode.usage
        let err: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "no arguments", args: [], err: usage("missing '--authorize-url <url>' (or '--issuer <url>' to discover endpoints)")),
        Case(name: "unknown option", args: valid + ["--clientid", "x"],
             err: usage("unknown option '--clientid'", hint: "Did you mean '--client-id'? See 'authcode --help'.")),
        Case(name: "missing --client-id", args: Array(valid.prefix(4)) + ["--redirect-uri", redirect], err: usage("missing '--client-id <id>'")),
        Case(name: "missing --redirect-uri", args: Array(valid.prefix(6)), err: usage("missing '--redirect-uri <uri>'")),
        Case(name: "no endpoints", args: ["--client-id", "x", "--redirect-uri", redirect],
             err: usage("missing '--authorize-url <url>' (or '--issuer <url>' to discover endpoints)")),
        Case(name: "bad URL", args: ["--authorize-url", "not a url"] + valid.dropFirst(2),
             err: usage("'--authorize-url' must be an absolute http or https URL, not 'not a url'")),
        Case(name: "bad --issuer", args: ["--issuer", "::nope", "--client-id", "x", "--redirect-uri", redirect],
             err: usage("'--issuer' must be an absolute http or https URL, not '::nope'")),
        Case(name: "bad --pkce", args: valid + ["--pkce", "S512"], err: usage("invalid value 'S512' for '--pkce': expected one of S256, plain, off")),
        Case(name: "bad --print", args: valid + ["--print", "everything"],
             err: usage("invalid value 'everything' for '--print': expected one of json, access_token, id_token, refresh_token, header, expires_at, exec-credential, code, claims, userinfo")),
        Case(name: "bad --method", args: valid + ["--method", "PUT"], err: usage("invalid value 'PUT' for '--method': expected one of POST, GET")),
        Case(name: "bad --auth-method", args: valid + ["--auth-method", "private_key_jwt"], err: usage("'--auth-method private_key_jwt' needs '--client-key <file>'")),
        Case(name: "basic auth without a secret", args: valid + ["--auth-method", "client_secret_basic"],
             err: usage("'--auth-method client_secret_basic' needs '--client-secret <secret>'")),
        Case(name: "--timeout abc", args: valid + ["--timeout", "abc"],
             err: usage("invalid value 'abc' for '--timeout': expected seconds greater than 0, fractions allowed")),
        Case(name: "--max-hops 0", args: valid + ["--max-hops", "0"], err: usage("invalid value '0' for '--max-hops': expected a whole number from 1 to 100")),
        Case(name: "--header without a colon", args: valid + ["-H", "nocolon"], err: usage("invalid value for '--header': expected 'Name: value' on one line")),
        Case(name: "--form without =", args: valid + ["--form", "username"], err: usage("invalid value for '--form': expected NAME=VALUE")),
        Case(name: "--step without a URL", args: valid + ["--step", "POST"],
             err: usage("invalid value for '--step': expected 'METHOD URL [BODY]' with METHOD one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS")),
        Case(name: "@missing-file", args: valid + ["--client-secret", "@/nonexistent/authcode-e2e/secret"],
             err: usage("cannot read '/nonexistent/authcode-e2e/secret' for '--client-secret': no such file")),
        Case(name: "--verbose --quiet", args: valid + ["--verbose", "--quiet"], err: usage("'--verbose' and '--quiet' cannot be used together")),
        Case(name: "bad value in the environment", args: valid, env: ["AUTHCODE_PKCE": "S512"],
             err: usage("invalid value 'S512' for '--pkce': expected one of S256, plain, off")),
    ]

    @Test(arguments: cases)
    func usageError(_ c: Case) {
        let ran = authcode(c.args, env: c.env, stdin: c.stdin)
        expectFailure(ran, c.exit, c.err)
        #expect(ran.requests.isEmpty, "nothing is sent")
    }

    /// Issue 4's bad-input table, command-line rows: each with -v and the
    /// secret in the environment, one error line and its hint, no secret.
    static let endpoints = ["--authorize-url", "http://127.0.0.1:9/a", "--token-url", "http://127.0.0.1:9/t"]
    static let client = ["--client-id", "demo-app", "--redirect-uri", redirect]
    static let secret = ScriptedServer.demoSecretEnv

    static let badCommandLines: [Case] = [
        Case(name: "nothing", args: [], env: secret, err: usage("missing '--authorize-url <url>' (or '--issuer <url>' to discover endpoints)")),
        Case(name: "no client", args: endpoints, env: secret, err: usage("missing '--client-id <id>'")),
        Case(name: "no redirect_uri", args: endpoints + ["--client-id", "x"], env: secret, err: usage("missing '--redirect-uri <uri>'")),
        Case(name: "--frobnicate", args: endpoints + client + ["--frobnicate"], env: secret, err: usage("unknown option '--frobnicate'")),
        Case(name: "--client-secrt", args: endpoints + client + ["--client-secrt", "x"], env: secret,
             err: usage("unknown option '--client-secrt'", hint: "Did you mean '--client-secret'? See 'authcode --help'.")),
        Case(name: "-Z", args: endpoints + client + ["-Z"], env: secret, err: usage("unknown option '-Z'")),
        Case(name: "stray", args: endpoints + client + ["stray"], env: secret, err: usage("unexpected argument 'stray': authcode takes options only")),
        Case(name: "--scope without a value", args: endpoints + client + ["--scope"], env: secret, err: usage("missing value for '--scope <scopes>'")),
        Case(name: "ftp", args: ["--authorize-url", "ftp://x/a", "--token-url", "http://127.0.0.1/t"] + client, env: secret,
             err: usage("'--authorize-url' must be an absolute http or https URL, not 'ftp://x/a'")),
        Case(name: "relative", args: ["--authorize-url", "/relative", "--token-url", "http://127.0.0.1/t"] + client, env: secret,
             err: usage("'--authorize-url' must be an absolute http or https URL, not '/relative'")),
        Case(name: "broken IPv6", args: ["--authorize-url", "http://[::1/a", "--token-url", "http://127.0.0.1/t"] + client, env: secret,
             err: usage("'--authorize-url' must be an absolute http or https URL, not 'http://[::1/a'")),
        Case(name: "relative redirect_uri", args: endpoints + ["--client-id", "x", "--redirect-uri", "callback"], env: secret,
             err: usage("'--redirect-uri' must be an absolute URI without a fragment, not 'callback'")),
        Case(name: "redirect_uri with a fragment", args: endpoints + ["--client-id", "x", "--redirect-uri", "http://127.0.0.1/cb#frag"], env: secret,
             err: usage("'--redirect-uri' must be an absolute URI without a fragment, not 'http://127.0.0.1/cb#frag'")),
        Case(name: "--pkce S512", args: endpoints + client + ["--pkce", "S512"], env: secret,
             err: usage("invalid value 'S512' for '--pkce': expected one of S256, plain, off")),
        Case(name: "--auth-method private_jwt", args: endpoints + client + ["--auth-method", "private_jwt"], env: secret,
             err: usage("invalid value 'private_jwt' for '--auth-method': expected one of client_secret_basic, client_secret_post, none, client_secret_jwt, private_key_jwt, tls_client_auth, self_signed_tls_client_auth")),
        Case(name: "private_key_jwt without a key", args: endpoints + client + ["--auth-method", "private_key_jwt"], env: secret,
             err: usage("'--auth-method private_key_jwt' needs '--client-key <file>'")),
        Case(name: "--response-mode web_message", args: endpoints + client + ["--response-mode", "web_message"], env: secret,
             err: usage("invalid value 'web_message' for '--response-mode': expected one of query, fragment, form_post, jwt, query.jwt, fragment.jwt, form_post.jwt")),
        Case(name: "--method PUT", args: endpoints + client + ["--method", "PUT"], env: secret,
             err: usage("invalid value 'PUT' for '--method': expected one of POST, GET")),
        Case(name: "--print everything", args: endpoints + client + ["--print", "everything"], env: secret,
             err: usage("invalid value 'everything' for '--print': expected one of json, access_token, id_token, refresh_token, header, expires_at, exec-credential, code, claims, userinfo")),
        Case(name: "--timeout abc", args: endpoints + client + ["--timeout", "abc"], env: secret,
             err: usage("invalid value 'abc' for '--timeout': expected seconds greater than 0, fractions allowed")),
        Case(name: "--timeout 0", args: endpoints + client + ["--timeout", "0"], env: secret,
             err: usage("invalid value '0' for '--timeout': expected seconds greater than 0, fractions allowed")),
        Case(name: "--connect-timeout -1", args: endpoints + client + ["--connect-timeout", "-1"], env: secret,
             err: usage("invalid value '-1' for '--connect-timeout': expected seconds greater than 0, fractions allowed")),
        Case(name: "--timeout nan", args: endpoints + client + ["--timeout", "nan"], env: secret,
             err: usage("invalid value 'nan' for '--timeout': expected seconds greater than 0, fractions allowed")),
        Case(name: "--max-hops 0", args: endpoints + client + ["--max-hops", "0"], env: secret,
             err: usage("invalid value '0' for '--max-hops': expected a whole number from 1 to 100")),
        Case(name: "--max-hops huge", args: endpoints + client + ["--max-hops", "99999999999999999999"], env: secret,
             err: usage("invalid value '99999999999999999999' for '--max-hops': expected a whole number from 1 to 100")),
        Case(name: "--form wonderland", args: endpoints + client + ["--form", "wonderland"], env: secret,
             err: usage("invalid value for '--form': expected NAME=VALUE")),
        Case(name: "--param =x", args: endpoints + client + ["--param", "=x"], env: secret, err: usage("invalid value for '--param': expected NAME=VALUE")),
        Case(name: "--header NoColon", args: endpoints + client + ["--header", "NoColon"], env: secret,
             err: usage("invalid value for '--header': expected 'Name: value' on one line")),
        Case(name: "--connect-to a:b", args: endpoints + client + ["--connect-to", "a:b"], env: secret,
             err: usage("invalid value 'a:b' for '--connect-to': expected HOST:PORT:HOST2:PORT2")),
        // One parser (HTTP/ConnectTo.swift): a port libcurl cannot use is exit 2 at parse time, not a plain-http refusal later.
        Case(name: "--connect-to port 70000", args: endpoints + client + ["--connect-to", "127.0.0.1::127.0.0.1:70000"], env: secret,
             err: usage("invalid value '127.0.0.1::127.0.0.1:70000' for '--connect-to': port '70000' is not a number from 1 to 65535 (or empty: any)")),
        Case(name: "--step FETCH", args: endpoints + client + ["--step", "FETCH http://127.0.0.1/x"], env: secret,
             err: usage("invalid value for '--step': expected 'METHOD URL [BODY]' with METHOD one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS")),
        Case(name: "--step not-a-url", args: endpoints + client + ["--step", "POST not-a-url"], env: secret,
             err: usage("invalid URL 'not-a-url' in '--step': expected an absolute http or https URL")),
        Case(name: "--submit =x", args: endpoints + client + ["--submit", "=x"], env: secret,
             err: usage("invalid value '=x' for '--submit': expected NAME or NAME=VALUE")),
        Case(name: "@ a missing file", args: endpoints + client + ["--client-secret", "@/nonexistent/secret"], env: secret,
             err: usage("cannot read '/nonexistent/secret' for '--client-secret': no such file")),
        Case(name: "@ a directory", args: endpoints + client + ["--client-secret", "@/tmp"], env: secret,
             err: usage("cannot read '/tmp' for '--client-secret': it is a directory")),
        Case(name: "@- twice", args: endpoints + client + ["--client-secret", "@-", "--form", "password=@-"], env: secret, stdin: "demo-secret\n",
             err: usage("standard input is already read by '--client-secret'; '--form password' cannot read '@-' too")),
        Case(name: "client_secret_post without a secret", args: endpoints + client + ["--auth-method", "client_secret_post"],
             err: usage("'--auth-method client_secret_post' needs '--client-secret <secret>'")),
        Case(name: "none with a secret", args: endpoints + client + ["--auth-method", "none", "--client-secret", "demo-secret"], env: secret,
             err: usage("'--auth-method none' sends no secret, but '--client-secret' is set; drop one of them")),
        Case(name: "--key without --cert", args: endpoints + client + ["--key", "/etc/hostname"], env: secret, err: usage("'--key <file>' needs '--cert <file>'")),
        Case(name: "-v -q", args: endpoints + client + ["-v", "-q"], env: secret, err: usage("'--verbose' and '--quiet' cannot be used together")),
        Case(name: "--verbose=yes", args: endpoints + client + ["--verbose=yes"], env: secret, err: usage("'--verbose' takes no value")),
        Case(name: "plain http to a name", args: ["--authorize-url", "http://example.invalid/a", "--token-url", "http://example.invalid/t"] + client,
             env: secret, exit: .securityCheck,
             err: "authcode: error: refusing plain http to 'example.invalid': secrets would travel unencrypted (http://example.invalid/a)\n"
                + "Use https, or pass --allow-http if this network is trusted.\n"),
    ]

    @Test(arguments: badCommandLines)
    func badCommandLine(_ c: Case) {
        let ran = authcode(["-v"] + c.args, env: c.env, stdin: c.stdin)
        expectFailure(ran, c.exit, c.err)
        #expect(ran.requests.isEmpty, "nothing is sent")
        #expect(!ran.err.contains("demo-secret"))
    }

    @Test(arguments: ["--help", "-h"])
    func help(_ flag: String) {
        let ran = authcode([flag])
        #expect(ran.exit == .success, "\(ran)")
        #expect(ran.err.isEmpty, "\(ran)")
        #expect(ran.out == Help.text)
        #expect(ran.out.contains("USAGE") && ran.out.contains("EXIT CODES"), "\(ran)")
        for option in ["--issuer", "--client-id", "--redirect-uri", "--print", "--step", "--max-hops", "--allow-http"] {
            #expect(ran.out.contains(option), "--help lists \(option)")
        }
        for code in 2...8 { #expect(ran.out.contains("  \(code)  "), "--help documents exit \(code)") }
    }

    @Test func helpWinsOverOtherArguments() {
        let ran = authcode(["--client-id", "x", "--help"])
        #expect(ran.exit == .success && ran.out == Help.text && ran.err.isEmpty, "\(ran)")
    }

    @Test(arguments: [(["--help"], Help.text), (["-h"], Help.text), (["--version"], VersionText.text(LibraryVersions())),
                      (["--completion", "zsh"], CompletionScript.text(for: .zsh)),
                      (["--completion=fish", "--timeout", "0"], CompletionScript.text(for: .fish)),
                      (["--client-id", "x", "--completion", "BASH"], CompletionScript.text(for: .bash))])
    func runPrintsToStdout(arguments: [String], expected: String) {
        let ran = authcode(arguments)
        #expect(ran.exit == .success)
        #expect(ran.out == expected)
        #expect(ran.err == "")
        #expect(ran.requests.isEmpty)
    }
}
