import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import OAuth
@testable import Walk
@testable import Flow
@testable import CLI

/// Shared by the command-line test files: a minimal valid command line and a
/// parser whose standard input is scripted (never the real stdin).
enum CLI {
    static let authorize = "https://as.example/authorize"
    static let token = "https://as.example/token"
    static let redirect = "http://127.0.0.1:8765/cb"
    static let required: [(String, String)] = [
        ("--authorize-url", authorize), ("--token-url", token), ("--client-id", "app"), ("--redirect-uri", redirect),
    ]

    /// The required options minus `without`, then `extra`.
    static func arguments(without: Set<String> = [], _ extra: [String] = []) -> [String] {
        required.filter { !without.contains($0.0) }.flatMap { [$0.0, $0.1] } + extra
    }

    static func parse(_ arguments: [String], environment: [String: String] = [:], stdin: [UInt8]? = nil) throws(UsageError) -> ParsedCommand {
        try ArgumentParser(environment: environment, reader: ValueReader(readStandardInput: { stdin })).parse(arguments)
    }

    static func options(_ arguments: [String], environment: [String: String] = [:], stdin: [UInt8]? = nil) throws(UsageError) -> Options {
        guard case .run(let options) = try parse(arguments, environment: environment, stdin: stdin) else {
            throw UsageError("not a run")
        }
        return options
    }

    /// A temporary file holding exactly these bytes.
    static func file(_ bytes: [UInt8]) -> String {
        let path = NSTemporaryDirectory() + "authcode-unit-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }
}

struct ArgumentParserTests {
    /// A file that certainly exists and can be read: --cacert, --cert and
    /// --key must name one.
    static let readable = #filePath

    /// One sample per value-taking option: what to pass, extra options it
    /// needs, and how the parsed result reads back.
    static let samples: [String: (value: String, extra: [String], expected: String)] = [
        "issuer": ("https://idp.example/realms/dev", [], "https://idp.example/realms/dev"),
        "authorize-url": ("https://other.example/auth?x=1", [], "https://other.example/auth?x=1"),
        "token-url": ("https://other.example/token", [], "https://other.example/token"),
        "expect-iss": ("https://iss.example", [], "https://iss.example"),
        "client-id": ("cli 2", [], "cli 2"),
        "client-secret": ("s3cr3t", [], "s3cr3t/client_secret_basic"),
        "auth-method": ("client_secret_post", ["--client-secret", "xyzw"], "client_secret_post"),
        "redirect-uri": ("com.example.app:/cb", [], "com.example.app:/cb"),
        "scope": ("openid profile", [], "openid profile"),
        "param": ("prompt=login=now", [], "prompt=login=now"),
        "pkce": ("plain", [], "plain"),
        "response-mode": ("form_post", [], "form_post"),
        "method": ("GET", [], "GET"),
        "form": ("username=alice", [], "username=alice"),
        "submit": ("approve=yes", [], "approve=yes"),
        "step": ("post https://as.example/login {\"u\": 1}", [], "POST https://as.example/login {\"u\": 1}"),
        "max-hops": ("7", [], "7"),
        "print": ("access_token", [], "access_token"),
        "header": ("X-Test:  a: b ", [], "X-Test=a: b"),
        "connect-to": ("as.example:443:127.0.0.1:8443", [], "as.example:443:127.0.0.1:8443"),
        "cacert": (readable, [], readable),
        "cert": (readable, [], readable),
        "key": (readable, ["--cert", readable], readable),
        "timeout": ("2.5", [], "2.5"),
        "connect-timeout": ("0.25", [], "0.25"),
        "totp-secret": ("JBSWY3DPEHPK3PXP", [], "JBSWY3DPEHPK3PXP"),
        "totp-field": ("otp", ["--totp-secret", "JBSWY3DPEHPK3PXP"], "otp"),
        "passkey": (PasskeyOptionTests.unmade, ["--passkey-register"], PasskeyOptionTests.unmade + "/not made yet"),
        "idp": ("KEYCLOAK", [], "keycloak"),
        "trust-origin": ("HTTPS://Login.Example:443/", [], "https://login.example"),
        "refresh-token": ("rt-1", [], "rt-1"),
        "cache-dir": ("/tmp/x", [], "/tmp/x"),
        "min-ttl": ("300", ["--cache"], "300"),
        "users": ("users.csv", [], "users.csv"),
        "parallel": ("16", ["--users", "-"], "16"),
        "shard": ("2/4", ["--users", "-"], "2/4"),
        "output": ("out/token.json", [], "out/token.json"),
        "config": (emptyConfig, [], emptyConfig),
        "proxy": ("socks5h://127.0.0.1:1080", [], "socks5h://127.0.0.1:1080"),
        "noproxy": (".internal,localhost", [], ".internal,localhost"),
        // The modern client profile (OptionTable.profile).
        "client-key": (TestKeyFiles.p256, [], "\(TestKeyFiles.p256)/private_key_jwt"),
        "client-key-id": ("kid-1", ["--client-key", TestKeyFiles.p256], "kid-1"),
        "client-key-alg": ("es256", ["--client-key", TestKeyFiles.p256], "ES256"),
        "assertion-aud": ("endpoint", ["--client-key", TestKeyFiles.p256], "endpoint"),
        "dpop-key": (TestKeyFiles.ed25519, [], "\(TestKeyFiles.ed25519)/dpop"),
        "dpop-for": ("get https://api.example/me?x=1", ["--dpop", "--print", "header"], "GET https://api.example/me?x=1"),
        "dpop-nonce": ("eyJ7S_zG.abc-1~", ["--dpop", "--print", "header", "--dpop-for", "GET https://api.example/"], "eyJ7S_zG.abc-1~"),
        "call": ("post https://api.example/orders {\"n\": 1}", [], "POST https://api.example/orders {\"n\": 1}"),
        "resource": ("urn:example:api", [], "urn:example:api"),
        "authorization-details": (#"[{"type":"payment_initiation","n":1}]"#, [], #"[{"type":"payment_initiation","n":1}]"#),
        "front-param": ("g_continue=true", [], "g_continue=true"),
        "jwks": ("https://idp.example/jwks", [], "url https://idp.example/jwks"),
        "id-token-alg": ("ps256, ES256,PS256", [], "PS256,ES256"),
        "trust-audience": ("api://default", [], "api://default"),
        "clock-skew": ("5.5", [], "5.5"),
    ]

    static func readBack(_ long: String, _ o: Options) -> String {
        switch long {
        case "issuer": o.flow.server.issuer ?? "nil"
        case "authorize-url": o.flow.server.authorizeURL ?? "nil"
        case "token-url": o.flow.server.tokenURL ?? "nil"
        case "expect-iss": o.flow.server.expectIss ?? "nil"
        case "client-id": o.flow.client.id
        case "client-secret": "\(o.flow.client.secret ?? "nil")/\(o.flow.client.authMethod.rawValue)"
        case "auth-method": o.flow.client.authMethod.rawValue
        case "redirect-uri": o.flow.client.redirectURI
        case "scope": o.flow.request.scope ?? "nil"
        case "param": o.flow.request.params.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
        case "pkce": o.flow.request.pkce.rawValue
        case "response-mode": o.flow.request.responseMode?.rawValue ?? "nil"
        case "method": o.flow.request.method.rawValue
        case "form": o.flow.walk.form.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
        case "submit": o.flow.walk.submit.map { "\($0.name)=\($0.value ?? "nil")" } ?? "nil"
        case "step": o.flow.walk.steps.map { "\($0.method) \($0.url) \($0.body ?? "nil")" }.joined(separator: ",")
        case "max-hops": "\(o.flow.walk.maxHops)"
        case "idp": o.flow.walk.idp.rawValue
        case "print": o.flow.output.print.rawValue
        case "header": o.flow.connection.headers.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
        case "connect-to": o.flow.connection.transport.connectTo.map(\.text).joined(separator: ",")
        case "cacert": o.flow.connection.transport.cacert ?? "nil"
        case "cert": o.flow.connection.transport.cert ?? "nil"
        case "key": o.flow.connection.transport.key ?? "nil"
        case "timeout": "\(o.flow.connection.transport.timeout)"
        case "connect-timeout": "\(o.flow.connection.transport.connectTimeout)"
        case "totp-secret": o.flow.walk.totpSecret ?? "nil"
        case "totp-field": o.flow.walk.totpField ?? "nil"
        case "passkey": "\(o.flow.walk.passkeyFile ?? "nil")/\(o.flow.walk.passkey == nil ? "not made yet" : "read")"
        case "trust-origin": o.flow.walk.trustOrigins.joined(separator: ",")
        case "refresh-token": o.flow.request.refreshToken ?? "nil"
        case "cache-dir": o.flow.cache.directory ?? "nil"
        case "min-ttl": "\(o.flow.cache.minTTL)"
        case "users": o.batch.input ?? "nil"
        case "parallel": "\(o.batch.parallel)"
        case "shard": o.batch.shard.map { "\($0.index)/\($0.count)" } ?? "nil"
        case "output": o.commandLine.outputFile ?? "nil"
        case "config": o.commandLine.configFiles.joined(separator: ",")
        case "proxy": o.flow.connection.transport.proxy.explicitProxy ?? "nil"
        case "noproxy": o.flow.connection.transport.proxy.explicitNoProxy ?? "nil"
        case "client-key": "\(o.flow.profile.clientKey?.path ?? "nil")/\(o.flow.client.authMethod.rawValue)"
        case "client-key-id": o.flow.profile.clientKeyID ?? "nil"
        case "client-key-alg": o.flow.profile.clientKeyAlg?.rawValue ?? "nil"
        case "assertion-aud": o.flow.profile.assertionAud.map { "\($0)" } ?? "nil"
        case "dpop-key": "\(o.flow.profile.dpop?.kept?.path ?? "nil")/\(o.flow.profile.dpop != nil ? "dpop" : "no dpop")"
        case "dpop-for": o.flow.profile.dpopFor.map { "\($0.method) \($0.url)" } ?? "nil"
        case "dpop-nonce": o.flow.profile.dpopNonce ?? "nil"
        case "call": o.flow.call.request.map { "\($0.method) \($0.url) \($0.body ?? "nil")" } ?? "nil"
        case "resource": o.flow.profile.resources.joined(separator: ",")
        case "authorization-details": o.flow.profile.authorizationDetails ?? "nil"
        case "front-param": o.flow.profile.frontParams.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
        case "jwks":
            switch o.flow.verification.jwks {
            case .url(let url)?: "url \(url)"
            case .given(let set, let from)?: "\(set.keys.count) keys from \(from)"
            case nil: "nil"
            }
        case "id-token-alg": o.flow.verification.idTokenAlgs.map { $0.map(\.rawValue).joined(separator: ",") } ?? "nil"
        case "trust-audience": o.flow.verification.trustAudiences.joined(separator: ",")
        case "clock-skew": "\(o.flow.verification.clockSkew)"
        default: "unknown option \(long)"
        }
    }

    /// A config file with nothing to set, for the `--config` sample.
    static let emptyConfig = CLI.file(Array("# nothing\n".utf8))

    /// Options that fill a setting (`--completion` answers on its own).
    static let valueOptions = OptionTable.all.filter { $0.takesValue && $0.role != .answer }.map(\.long)

    @Test func samplesCoverEveryValueOption() {
        #expect(Set(Self.samples.keys) == Set(Self.valueOptions))
    }

    @Test(arguments: valueOptions, [false, true])
    func everyValueOption(long: String, inline: Bool) throws {
        let sample = try #require(Self.samples[long])
        let given = inline ? ["--\(long)=\(sample.value)"] : ["--\(long)", sample.value]
        let options = try CLI.options(CLI.arguments(without: ["--" + long], given + sample.extra))
        #expect(Self.readBack(long, options) == sample.expected)
    }

    @Test(arguments: [
        (["-v"], "verbose"), (["--verbose"], "verbose"), (["-q"], "quiet"), (["--quiet"], "quiet"),
        (["-k"], "insecure"), (["--insecure"], "insecure"), (["-vk"], "verbose+insecure"), (["-kv"], "verbose+insecure"),
        (["--allow-http"], "allow-http"), ([], "none"),
    ])
    func switches(given: [String], expected: String) throws {
        let o = try CLI.options(CLI.arguments(given))
        var on: [String] = []
        if o.flow.output.verbosity == .verbose { on.append("verbose") }
        if o.flow.output.verbosity == .quiet { on.append("quiet") }
        if o.flow.connection.transport.insecure { on.append("insecure") }
        if o.flow.connection.allowHTTP { on.append("allow-http") }
        #expect((on.isEmpty ? "none" : on.joined(separator: "+")) == expected)
    }

    @Test(arguments: [
        (["-H", "A: 1"], "A=1"), (["-HA: 1"], "A=1"), (["-vHA:1"], "A=1"), (["--header", "A:"], "A="),
        (["-H", "X-Y: a:b"], "X-Y=a:b"),
    ])
    func shortHeader(given: [String], expected: String) throws {
        #expect(Self.readBack("header", try CLI.options(CLI.arguments(given))) == expected)
    }

    @Test(arguments: [
        ("param", ["b=2", "a=1", "b=3"]), ("form", ["user=x", "pin=1", "user=y"]), ("header", ["B: 2", "A: 1", "B: 3"]),
        ("step", ["GET https://as.example/a", "POST https://as.example/b x=1", "GET https://as.example/a"]),
        ("connect-to", ["b:1:c:2", "a:1:c:2", "b:1:d:3"]),
    ])
    func repeatablesKeepOrder(long: String, values: [String]) throws {
        let o = try CLI.options(CLI.arguments(values.flatMap { ["--" + long, $0] }))
        let expected: [String] = switch long {
        case "header": ["B=2", "A=1", "B=3"]
        case "step": ["GET https://as.example/a nil", "POST https://as.example/b x=1", "GET https://as.example/a nil"]
        default: values
        }
        #expect(Self.readBack(long, o) == expected.joined(separator: ","))
    }

    /// curl's --connect-to forms: empty parts and bracketed IPv6 literals.
    @Test(arguments: ["::127.0.0.1:8443", "as.example:443:127.0.0.1:", "[::1]:443:[::2]:8443", "as.example::[::1]:8443", ":::"])
    func connectToForms(value: String) throws {
        #expect(try CLI.options(CLI.arguments(["--connect-to", value])).flow.connection.transport.connectTo.map(\.text) == [value])
    }

    @Test(arguments: [("scope", "a", "b"), ("client-id", "x", "y"), ("max-hops", "3", "4"), ("pkce", "off", "plain"), ("expect-iss", "https://a", "https://b")])
    func laterNonRepeatableWins(long: String, first: String, second: String) throws {
        let o = try CLI.options(CLI.arguments(without: ["--" + long], ["--" + long, first, "--\(long)=\(second)"]))
        #expect(Self.readBack(long, o) == second)
    }

    // MARK: - Environment

    @Test(arguments: [
        ("AUTHCODE_SCOPE", "openid email", "scope", "openid email"),
        ("AUTHCODE_CLIENT_SECRET", "from-env", "client-secret", "from-env/client_secret_basic"),
        ("AUTHCODE_MAX_HOPS", "12", "max-hops", "12"),
        ("AUTHCODE_CONNECT_TIMEOUT", "1.5", "connect-timeout", "1.5"),
        ("AUTHCODE_PARAM", "a=1\nb=2\r\nc=3\n", "param", "a=1,b=2,c=3"),
        ("AUTHCODE_FORM", "\nuser=alice\r\rpassword=pw", "form", "user=alice,password=pw"),
        ("AUTHCODE_HEADER", "A: 1\nB: 2", "header", "A=1,B=2"),
    ])
    func environmentValues(name: String, value: String, long: String, expected: String) throws {
        let o = try CLI.options(CLI.arguments(), environment: [name: value])
        #expect(Self.readBack(long, o) == expected)
        #expect(o.warnings.isEmpty)
    }

    @Test func environmentSuppliesRequiredOptions() throws {
        let env = ["AUTHCODE_ISSUER": "https://idp.example", "AUTHCODE_CLIENT_ID": "env-app", "AUTHCODE_REDIRECT_URI": "https://app.example/cb"]
        let o = try CLI.options([], environment: env)
        #expect(o.flow.server.issuer == "https://idp.example" && o.flow.client.id == "env-app" && o.flow.client.redirectURI == "https://app.example/cb")
    }

    /// An empty variable is named as the place the empty value came from.
    @Test func anEmptyRequiredVariableIsNamed() {
        let env = ["AUTHCODE_ISSUER": "https://idp.example", "AUTHCODE_CLIENT_ID": "", "AUTHCODE_REDIRECT_URI": "https://app.example/cb"]
        #expect(throws: UsageError("'AUTHCODE_CLIENT_ID' is empty; it needs a value")) { try CLI.options([], environment: env) }
    }

    @Test(arguments: [("1", true), ("true", true), ("TRUE", true), ("yes", true), ("on", true),
                      ("0", false), ("false", false), ("False", false), ("no", false), ("off", false), ("", false)])
    func environmentSwitch(value: String, on: Bool) throws {
        let o = try CLI.options(CLI.arguments(), environment: ["AUTHCODE_INSECURE": value, "AUTHCODE_VERBOSE": value])
        #expect(o.flow.connection.transport.insecure == on)
        #expect(o.flow.output.verbosity == (on ? .verbose : .normal))
    }

    @Test(arguments: ["maybe", "2", "y", " 1"])
    func environmentSwitchInvalid(value: String) {
        #expect(throws: UsageError("AUTHCODE_ALLOW_HTTP must be 1/true/yes or 0/false/no, not '\(value)'")) {
            try CLI.options(CLI.arguments(), environment: ["AUTHCODE_ALLOW_HTTP": value])
        }
    }

    @Test(arguments: [
        (["--scope", "flag"], ["AUTHCODE_SCOPE": "env"], "scope", "flag"),
        (["--param", "a=flag"], ["AUTHCODE_PARAM": "b=env\nc=env"], "param", "a=flag"),
        (["--client-id", "flag"], ["AUTHCODE_CLIENT_ID": "env"], "client-id", "flag"),
        (["--pkce", "off"], ["AUTHCODE_PKCE": "bogus"], "pkce", "off"),
    ])
    func flagBeatsEnvironment(flags: [String], env: [String: String], long: String, expected: String) throws {
        let o = try CLI.options(CLI.arguments(without: ["--" + long], flags), environment: env)
        #expect(Self.readBack(long, o) == expected)
    }

}

extension ArgumentParserTests {
    // MARK: - @FILE and @-

    @Test(arguments: [
        ("s3cret\n", "s3cret"), ("s3cret\r\n", "s3cret"), ("s3cret\n\n", "s3cret\n"), ("s3cret", "s3cret"),
        ("two\nlines\n", "two\nlines"), ("\n", ""), ("pässwörd€\n", "pässwörd€"), ("sp ace \n", "sp ace "),
    ])
    func valueFromFile(contents: String, expected: String) throws {
        let path = CLI.file(Array(contents.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let o = try CLI.options(CLI.arguments(["--form", "password=@" + path, "--scope", "@" + path]))
        #expect(o.flow.walk.form == [NameValue("password", expected)])
        #expect(o.flow.request.scope == expected)
        #expect(o.warnings.isEmpty)
    }

    @Test(arguments: [("from-stdin\r\n", "from-stdin"), ("x\n", "x"), ("", "")])
    func valueFromStandardInput(input: String, expected: String) throws {
        let o = try CLI.options(CLI.arguments(["--scope", "@-"]), stdin: Array(input.utf8))
        #expect(o.flow.request.scope == expected)
    }

    @Test func fileErrors() throws {
        let missing = NSTemporaryDirectory() + "authcode-unit-missing-\(UUID().uuidString)"
        let directory = NSTemporaryDirectory()
        let latin1 = CLI.file([0x70, 0xE4, 0x73, 0x73])
        let huge = CLI.file([UInt8](repeating: 0x61, count: (1 << 20) + 2))
        defer { try? FileManager.default.removeItem(atPath: latin1); try? FileManager.default.removeItem(atPath: huge) }
        let cases: [([String], [UInt8]?, String)] = [
            (["--client-secret", "@" + missing], nil, "cannot read '\(missing)' for '--client-secret': no such file"),
            (["--client-secret", "@" + directory], nil, "cannot read '\(directory)' for '--client-secret': it is a directory"),
            (["--client-secret", "@" + huge], nil, "cannot read '\(huge)' for '--client-secret': read failed or larger than 1 MiB"),
            (["--client-secret", "@" + latin1], nil, "the value for '--client-secret' from '@\(latin1)' is not UTF-8 text"),
            (["--client-secret", "@"], nil, "'--client-secret' names an empty file path after '@'"),
            (["--form", "password=@" + missing], nil, "cannot read '\(missing)' for '--form password': no such file"),
            (["--client-secret", "@-", "--form", "password=@-"], Array("x".utf8),
             "standard input is already read by '--client-secret'; '--form password' cannot read '@-' too"),
            (["--scope", "@-"], nil, "cannot read standard input for '--scope'"),
            (["--scope", "@-"], [0xFF, 0xFE], "the value for '--scope' from '@-' is not UTF-8 text"),
        ]
        for (extra, stdin, message) in cases {
            #expect(throws: UsageError(message)) { try CLI.options(CLI.arguments(extra), stdin: stdin) }
        }
    }

    // MARK: - Validation errors

    static let invalid: [([String], String)] = {
        func replacing(_ long: String, _ value: String) -> [String] { CLI.arguments(without: [long], [long, value]) }
        func with(_ extra: String...) -> [String] { CLI.arguments(extra) }
        let endpoints = "(or '--issuer <url>' to discover endpoints)"
        let notURL = "must be an absolute http or https URL, not"
        let notURI = "'--redirect-uri' must be an absolute URI without a fragment, not"
        let seconds = "expected seconds greater than 0, fractions allowed"
        let hops = "for '--max-hops': expected a whole number from 1 to 100"
        let header = "invalid value for '--header': expected 'Name: value' on one line"
        let connect = "for '--connect-to': expected HOST:PORT:HOST2:PORT2"
        let port = "is not a number from 1 to 65535 (or empty: any)"
        let step = "invalid value for '--step': expected 'METHOD URL [BODY]' with METHOD one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS"
        let positional = "authcode takes options only"
        return [
            (CLI.arguments(without: ["--client-id"]), "missing '--client-id <id>'"),
            (replacing("--client-id", ""), "'--client-id' is empty; it needs a value"),
            (CLI.arguments(without: ["--redirect-uri"]), "missing '--redirect-uri <uri>'"),
            (CLI.arguments(without: ["--authorize-url"]), "missing '--authorize-url <url>' \(endpoints)"),
            (CLI.arguments(without: ["--token-url"]), "missing '--token-url <url>' \(endpoints)"),
            (CLI.arguments(without: ["--authorize-url", "--token-url"]), "missing '--authorize-url <url>' \(endpoints)"),
            (with("--scope"), "missing value for '--scope <scopes>'"),
            (with("-H"), "missing value for '--header <'name: value'>'"),
            (with("--issuer", "idp.example"), "'--issuer' \(notURL) 'idp.example'"),
            (replacing("--authorize-url", "/authorize"), "'--authorize-url' \(notURL) '/authorize'"),
            (replacing("--token-url", "https://as example/t"), "'--token-url' \(notURL) 'https://as example/t'"),
            (replacing("--token-url", "ftp://as.example/t"), "'--token-url' \(notURL) 'ftp://as.example/t'"),
            (replacing("--authorize-url", "https:///x"), "'--authorize-url' \(notURL) 'https:///x'"),
            (replacing("--redirect-uri", "/cb"), "\(notURI) '/cb'"),
            (replacing("--redirect-uri", "http://127.0.0.1/cb#x"), "\(notURI) 'http://127.0.0.1/cb#x'"),
            (with("--pkce", "S512"), "invalid value 'S512' for '--pkce': expected one of S256, plain, off"),
            (with("--auth-method", "basic", "--client-secret", "abcd"),
             "invalid value 'basic' for '--auth-method': expected one of client_secret_basic, client_secret_post, none, client_secret_jwt, private_key_jwt, tls_client_auth, self_signed_tls_client_auth"),
            (with("--response-mode", "web_message"), "invalid value 'web_message' for '--response-mode': expected one of query, fragment, form_post, jwt, query.jwt, fragment.jwt, form_post.jwt"),
            (with("--method", "PUT"), "invalid value 'PUT' for '--method': expected one of POST, GET"),
            (with("--print", "token"), "invalid value 'token' for '--print': expected one of json, access_token, id_token, refresh_token, header, expires_at, exec-credential, code, claims, userinfo"),
            (with("--timeout", "0"), "invalid value '0' for '--timeout': \(seconds)"),
            (with("--timeout", "-1"), "invalid value '-1' for '--timeout': \(seconds)"),
            (with("--timeout", "abc"), "invalid value 'abc' for '--timeout': \(seconds)"),
            (with("--timeout=inf"), "invalid value 'inf' for '--timeout': \(seconds)"),
            (with("--connect-timeout", "nan"), "invalid value 'nan' for '--connect-timeout': \(seconds)"),
            (with("--max-hops", "0"), "invalid value '0' \(hops)"), (with("--max-hops", "101"), "invalid value '101' \(hops)"),
            (with("--max-hops", "x"), "invalid value 'x' \(hops)"),
            (with("--header", "NoColon"), header), (with("--header", ": v"), header), (with("--header", "Bad Name: v"), header),
            (with("--header", "A: b\nInjected: c"), header), (with("--header", "A: b\r\nInjected: c"), header),
            (with("--connect-to", "a:443"), "invalid value 'a:443' \(connect)"),
            (with("--connect-to", "a:https:b:443"), "invalid value 'a:https:b:443' for '--connect-to': port 'https' \(port)"),
            (with("--connect-to", "a:443:b"), "invalid value 'a:443:b' \(connect)"),
            (with("--connect-to", "a:443:b:8443:x"), "invalid value 'a:443:b:8443:x' for '--connect-to': port '8443:x' \(port)"),
            (with("--connect-to", "a:\u{2460}:b:1"), "invalid value 'a:\u{2460}:b:1' for '--connect-to': port '\u{2460}' \(port)"),
            (with("--connect-to", "a:443:b:70000"), "invalid value 'a:443:b:70000' for '--connect-to': port '70000' \(port)"),
            (with("--connect-to", "a:0:b:1"), "invalid value 'a:0:b:1' for '--connect-to': port '0' \(port)"),
            (with("--step", "GET"), step), (with("--step", "FETCH https://as.example/x"), step),
            (with("--step", "GET /login"), "invalid URL '/login' in '--step': expected an absolute http or https URL"),
            (with("--submit", "=x"), "invalid value '=x' for '--submit': expected NAME or NAME=VALUE"),
            (with("--submit="), "invalid value '' for '--submit': expected NAME or NAME=VALUE"),
            (with("--param", "novalue"), "invalid value for '--param': expected NAME=VALUE"),
            (with("--form", "=hunter2"), "invalid value for '--form': expected NAME=VALUE"),
            (with("--key", readable), "'--key <file>' needs '--cert <file>'"),
            (with("--cacert", "/nonexistent/ca.pem"), "cannot read '/nonexistent/ca.pem' for '--cacert': no such file"),
            (with("--cert", "/nonexistent/c.pem", "--key", readable), "cannot read '/nonexistent/c.pem' for '--cert': no such file"),
            (with("--cert", readable, "--key", "/nonexistent/k.pem"), "cannot read '/nonexistent/k.pem' for '--key': no such file"),
            (with("--auth-method", "none", "--client-secret", "abcd"), "'--auth-method none' sends no secret, but '--client-secret' is set; drop one of them"),
            (with("--auth-method", "client_secret_post"), "'--auth-method client_secret_post' needs '--client-secret <secret>'"),
            (with("--auth-method", "client_secret_basic"), "'--auth-method client_secret_basic' needs '--client-secret <secret>'"),
            (with("--client-secret", ""), "'--client-secret' is empty"),
            (with("-v", "--quiet"), "'--verbose' and '--quiet' cannot be used together"),
            (with("--insecure=yes"), "'--insecure' takes no value"),
            (with("extra"), "unexpected argument 'extra': \(positional)"), (with("--", "extra"), "unexpected argument 'extra': \(positional)"),
            (with("-"), "unexpected argument '-': \(positional)"),
            // Verification (CLI/VerificationValues.swift, OptionRules.verification).
            (with("--id-token-alg", "RS256,none"), "'none' can only be given alone to '--id-token-alg': it then accepts unsigned id_tokens only"),
            (with("--id-token-alg", "RS256,XS256"), "invalid value 'XS256' for '--id-token-alg': expected algorithms from RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA, HS256, HS384, HS512, none"),
            (with("--id-token-alg", ""), "invalid value '' for '--id-token-alg': expected algorithms from RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA, HS256, HS384, HS512, none"),
            (with("--id-token-alg", "HS256"), "'--id-token-alg HS256' is keyed with the client secret; give '--client-secret <secret>'"),
            (with("--clock-skew", "-1"), "invalid value '-1' for '--clock-skew': expected seconds from 0 to 3600, fractions allowed"),
            (with("--clock-skew", "3601"), "invalid value '3601' for '--clock-skew': expected seconds from 0 to 3600, fractions allowed"),
            (with("--trust-audience", ""), "'--trust-audience' is empty"),
            (with("--param", "max_age=1h"), "'--param max_age=…' must be a whole number of seconds (OIDC Core §3.1.2.1)"),
            (with("--param", "max_age="), "'--param max_age=…' must be a whole number of seconds (OIDC Core §3.1.2.1)"),
            (with("--jwks", "/nonexistent/jwks.json"), "cannot read '/nonexistent/jwks.json' for '--jwks': no such file"),
            (with("--jwks", #"{"kty":"RSA"}"#), "the value for '--jwks' is not a key set: the key is not usable: n missing or zero"),
            (with("--jwks", #"{"keys":[{"kty":"oct","k":"c2VjcmV0"}]}"#), "the value for '--jwks' holds no key authcode can verify with (RSA, EC P-256/384/521, Ed25519)"),
            (with("--jwks", "{not json"), "the value for '--jwks' is not a key set: the key set is not JSON"),
            (with("--jwks", "ftp://idp.example/jwks"), "cannot read 'ftp://idp.example/jwks' for '--jwks': no such file"),
            (with("--userinfo"), "'--userinfo' needs '--issuer <url>': the userinfo endpoint comes from the issuer's metadata"),
        ]
    }()

    @Test(arguments: invalid)
    func validationError(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try CLI.parse(arguments) }
    }

    @Test(arguments: [
        ("--pkce", "s256", "pkce", "S256"), ("--method", "get", "method", "GET"), ("--response-mode", "FORM_POST", "response-mode", "form_post"),
        ("--print", "Access_Token", "print", "access_token"), ("--auth-method", "CLIENT_SECRET_POST", "auth-method", "client_secret_post"),
        ("--pkce", "OFF", "pkce", "off"),
    ])
    func enumsAreCaseInsensitive(flag: String, value: String, long: String, expected: String) throws {
        let o = try CLI.options(CLI.arguments([flag, value]), environment: ["AUTHCODE_CLIENT_SECRET": "abcd"])
        #expect(Self.readBack(long, o) == expected)
    }
}
