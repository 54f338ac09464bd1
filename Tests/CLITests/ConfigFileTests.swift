import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import OAuth
@testable import Walk
@testable import Flow
@testable import CLI

/// `-K FILE` in curl's syntax (curl(1) `--config`), the precedence of the
/// layers, and the rule for secrets in files others can read.
struct ConfigFileTests {
    /// A config file with exactly `text` and `mode`, in a fresh directory.
    static func file(_ text: String, mode: Int = 0o600) throws -> String {
        let directory = NSTemporaryDirectory() + "authcode-config-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let path = directory + "/team.conf"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    static func entries(_ text: String) throws(UsageError) -> [String] {
        try ConfigFile.parse(Array(text.utf8), path: "team.conf").map { "\($0.declaration.long)=\($0.value)@\($0.line)" }
    }

    // MARK: - Syntax

    @Test(arguments: [
        ("--scope \"openid profile\"", "scope=openid profile@1"),
        ("scope \"openid profile\"", "scope=openid profile@1"),
        ("scope = \"openid profile\"", "scope=openid profile@1"),
        ("scope: openid", "scope=openid@1"),
        ("scope=openid", "scope=openid@1"),
        ("--scope=openid", "scope=openid@1"),
        ("   scope\t  openid   # the default scope", "scope=openid@1"),
        ("scope openid#profile", "scope=openid#profile@1"),
        ("-H \"X-Team: blue\"", "header=X-Team: blue@1"),
        ("header: \"X-Team: blue\"", "header=X-Team: blue@1"),
        ("insecure", "insecure=true@1"),
        ("--insecure", "insecure=true@1"),
        ("-k", "insecure=true@1"),
        ("verbose # trace", "verbose=true@1"),
        ("form password=@pw.txt", "form=password=@pw.txt@1"),
        ("scope \"a\\\"b\\\\c\\td\\ne\\rf\\vg\\xh\"", "scope=a\"b\\c\td\ne\rf\u{0B}gxh@1"),
        ("scope \"\"", "scope=@1"),
        ("scope \"x\" # why", "scope=x@1"),
        ("param \"=leading\"", "param==leading@1"),
        ("scope \"caf\u{E9}\"", "scope=caf\u{E9}@1"),
    ])
    func oneLine(line: String, expected: String) throws {
        #expect(try Self.entries(line) == [expected])
    }

    @Test func commentsBlankLinesLineEndingsAndBOM() throws {
        let text = "\u{FEFF}# team settings\r\n\r\n   # indented comment\n\tscope openid\r\nform a=1\nform b=2"
        #expect(try Self.entries(text) == ["scope=openid@4", "form=a=1@5", "form=b=2@6"])
    }

    @Test(arguments: [
        ("scop openid", "unknown option 'scop' in a config file", "Did you mean '--scope'? See 'authcode --help'."),
        ("--client-ids x", "unknown option '--client-ids' in a config file", "Did you mean '--client-id'? See 'authcode --help'."),
        ("-Z x", "unknown option '-Z' in a config file", "See 'authcode --help'."),
        ("scope openid profile", "the value for '--scope' holds whitespace; put it in double quotes (\"…\")", "See 'authcode --help'."),
        ("insecure yes", "'--insecure' is a switch and takes no value; write it alone on its line", "See 'authcode --help'."),
        ("scope", "missing value for '--scope <scopes>'", "See 'authcode --help'."),
        ("scope =  ", "missing value for '--scope <scopes>'", "See 'authcode --help'."),
        ("scope \"openid", "the value for '--scope' has no closing double quote", "See 'authcode --help'."),
        ("scope \"openid\\\"", "the value for '--scope' has no closing double quote", "See 'authcode --help'."),
        ("scope \"openid\" profile", "text after the closing quote of the value for '--scope'", "See 'authcode --help'."),
        ("-vk", "'-vk': write one short option per line, its value after a space", "See 'authcode --help'."),
        ("config other.conf", "a config file cannot name another one ('--config'); name every file on the command line", "See 'authcode --help'."),
        ("-K other.conf", "a config file cannot name another one ('--config'); name every file on the command line", "See 'authcode --help'."),
        ("help", "'--help' cannot be set in a config file", "See 'authcode --help'."),
        ("version", "'--version' cannot be set in a config file", "See 'authcode --help'."),
        ("completion bash", "'--completion' cannot be set in a config file", "See 'authcode --help'."),
    ])
    func badLine(line: String, message: String, hint: String) {
        #expect(throws: UsageError(message, at: "team.conf line 3", hint: hint)) {
            try Self.entries("# one\n\n" + line + "\nscope fine\n")
        }
    }

    @Test func valueThatIsNotUTF8() {
        #expect(throws: UsageError("the value for '--scope' is not UTF-8 text", at: "team.conf line 1", hint: "See 'authcode --help'.")) {
            try ConfigFile.parse(Array("scope caf".utf8) + [0xE9], path: "team.conf")
        }
    }

    @Test func nulByte() {
        #expect(throws: UsageError("a NUL byte is not text", at: "team.conf line 2", hint: "See 'authcode --help'.")) {
            try ConfigFile.parse(Array("scope a\nscope b".utf8) + [0, 0x0A], path: "team.conf")
        }
    }

    // MARK: - Layers

    static func settings(_ files: [String], arguments: [String] = [], environment: [String: String] = [:]) throws(UsageError) -> Options {
        try CLI.options(files.flatMap { ["-K", $0] } + CLI.arguments(arguments), environment: environment)
    }

    @Test func commandLineThenEnvironmentThenConfig() throws {
        let config = try Self.file("scope from-config\nmax-hops 3\n")
        #expect(try Self.settings([config]).flow.request.scope == "from-config")
        #expect(try Self.settings([config], environment: ["AUTHCODE_SCOPE": "from-env"]).flow.request.scope == "from-env")
        #expect(try Self.settings([config], arguments: ["--scope", "from-flag"], environment: ["AUTHCODE_SCOPE": "from-env"]).flow.request.scope == "from-flag")
        #expect(try Self.settings([config], arguments: ["--scope", "from-flag"]).flow.walk.maxHops == 3)
    }

    @Test func laterFilesWin() throws {
        let first = try Self.file("scope first\nmax-hops 3\n")
        let second = try Self.file("scope second\n")
        let options = try Self.settings([first, second])
        #expect(options.flow.request.scope == "second")
        #expect(options.flow.walk.maxHops == 3)
        #expect(options.commandLine.configFiles == [first, second])
    }

    @Test func repeatableOptionsCollectConfigValuesFirst() throws {
        let first = try Self.file("form a=1\n-H \"X-One: 1\"\n")
        let second = try Self.file("form b=2\n")
        let flags = try Self.settings([first, second], arguments: ["--form", "c=3"], environment: ["AUTHCODE_FORM": "e=5"])
        #expect(flags.flow.walk.form == [NameValue("a", "1"), NameValue("b", "2"), NameValue("c", "3")])
        #expect(flags.flow.connection.headers == [HTTPHeader("X-One", "1")])
        let environment = try Self.settings([first, second], environment: ["AUTHCODE_FORM": "e=5\nf=6"])
        #expect(environment.flow.walk.form == [NameValue("a", "1"), NameValue("b", "2"), NameValue("e", "5"), NameValue("f", "6")])
    }

    @Test func theEnvironmentNamesConfigFilesUnlessTheCommandLineDoes() throws {
        let team = try Self.file("scope team\n")
        let mine = try Self.file("scope mine\n")
        #expect(try CLI.options(CLI.arguments(), environment: ["AUTHCODE_CONFIG": team]).flow.request.scope == "team")
        #expect(try CLI.options(CLI.arguments(["-K", mine]), environment: ["AUTHCODE_CONFIG": team]).flow.request.scope == "mine")
        #expect(try CLI.options(CLI.arguments(), environment: ["AUTHCODE_CONFIG": team + "\n" + mine]).flow.request.scope == "mine")
        #expect(try CLI.options(CLI.arguments()).flow.request.scope == nil, "no file is read unless named")
    }

    @Test func everythingFromAFile() throws {
        let config = try Self.file("""
            authorize-url https://as.example/authorize
            token-url: https://as.example/token
            client-id = cli
            redirect-uri http://127.0.0.1:8765/cb
            pkce plain
            print access_token
            """)
        let options = try CLI.options(["-K", config])
        #expect(options.flow.server.authorizeURL == "https://as.example/authorize")
        #expect(options.flow.server.tokenURL == "https://as.example/token")
        #expect(options.flow.client.id == "cli")
        #expect(options.flow.request.pkce == .plain)
        #expect(options.flow.output.print == .accessToken)
    }

    @Test func aFlagSilencesItsRivalInTheLayersBelow() throws {
        let loud = try Self.file("verbose\n")
        #expect(try Self.settings([loud], arguments: ["-q"]).flow.output.verbosity == .quiet)
        #expect(try Self.settings([loud], environment: ["AUTHCODE_QUIET": "1"]).flow.output.verbosity == .quiet)
        let quiet = try Self.file("quiet\n")
        #expect(try Self.settings([loud, quiet]).flow.output.verbosity == .quiet)
        #expect(try Self.settings([quiet, loud]).flow.output.verbosity == .verbose)
        #expect(try Self.settings([quiet], environment: ["AUTHCODE_VERBOSE": "yes"]).flow.output.verbosity == .verbose)
    }

    @Test func aBadValueInAFileSaysWhere() throws {
        let config = try Self.file("# team\npkce bogus\n")
        #expect(throws: UsageError("invalid value 'bogus' for '--pkce': expected one of S256, plain, off", at: "\(config) line 2",
                                hint: "See 'authcode --help'.")) {
            try Self.settings([config])
        }
        let list = try Self.file("form a=1\nform nothing\n")
        #expect(throws: UsageError("invalid value for '--form': expected NAME=VALUE", at: "\(list) line 2", hint: "See 'authcode --help'.")) {
            try Self.settings([list])
        }
    }

    @Test func fileValuesResolveAsOnTheCommandLine() throws {
        let password = try Self.file("pw-from-file\n")
        let config = try Self.file("form password=@\(password)\nclient-secret @\(password)\n", mode: 0o644)
        let options = try Self.settings([config])
        #expect(options.flow.walk.form == [NameValue("password", "pw-from-file")])
        #expect(options.flow.client.secret == "pw-from-file")
    }

    // MARK: - Files that are not config files

    @Test func missingDirectoryAndFIFO() throws {
        let missing = NSTemporaryDirectory() + "authcode-none-\(UUID().uuidString)"
        #expect(throws: UsageError("cannot read config file '\(missing)': no such file")) { try Self.settings([missing]) }
        let directory = NSTemporaryDirectory()
        #expect(throws: UsageError("cannot read config file '\(directory)': it is a directory")) { try Self.settings([directory]) }
        let fifo = NSTemporaryDirectory() + "authcode-fifo-\(UUID().uuidString)"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        // No writer: opening must not wait, and a FIFO is refused whatever it would say.
        #expect(throws: UsageError("cannot read config file '\(fifo)': it is not a regular file")) { try Self.settings([fifo]) }
    }

    // MARK: - Secrets in files others can read

    @Test(arguments: [
        ("client-secret s3cret-value", "client-secret", 1),
        ("# ci\ntotp-secret JBSWY3DPEHPK3PXP", "totp-secret", 2),
        ("refresh-token rt-123456", "refresh-token", 1),
        ("form username=alice\nform password=hunter2-pw", "form", 2),
        ("form \"PIN=1234\"", "form", 1),
        ("form otp=123456", "form", 1),
        ("param client_assertion=eyJhbGciOi", "param", 1),
        ("-H \"Authorization: Bearer abcdef\"", "header", 1),
        ("header \"Cookie: sid=abcdef\"", "header", 1),
        ("client-secret @@starts-with-at", "client-secret", 1),
        ("form password=@@literal", "form", 1),
        // A pair's VALUE is sent as written unless it starts with `@`
        // (OptionValues.pair): a blank before `@` or an `@` before the
        // name leaves it literal (found by FuzzConfigFile).
        ("form \"password= @hunter2-pw\"", "form", 1),
        ("form @password=hunter2-pw", "form", 1),
        ("param \"client_assertion=\t@eyJhbGciOi\"", "param", 1),
        ("step \"POST https://idp.example/api/login {\\\"user\\\":\\\"alice\\\",\\\"password\\\":\\\"hunter2-pw\\\"}\"", "step", 1),
        ("step \"POST https://idp.example/login user=alice&password=hunter2-pw\"", "step", 1),
    ])
    func secretInAFileOthersCanRead(text: String, option: String, line: Int) throws {
        for mode in [0o644, 0o640, 0o604] {
            let config = try Self.file(text, mode: mode)
            let expected = UsageError(
                                   "config file '\(config)' holds a secret ('--\(option)' on line \(line)) and group or others can read it; run 'chmod 600 \(config)'",
                                   hint: "Or keep the secret in a file of its own and name that file with @FILE in the config file.")
            #expect(throws: expected) { try Self.settings([config]) }
            do throws(UsageError) {
                _ = try Self.settings([config])
            } catch {
                // The secret itself is never in the message.
                for secret in ["s3cret-value", "JBSWY3DPEHPK3PXP", "rt-123456", "hunter2-pw", "eyJhbGciOi", "abcdef", "literal"] {
                    #expect(!ErrorReport(.usage(error)).markedLine.contains(secret) && !(error.hint ?? "").contains(secret))
                }
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: config)
            _ = try Self.settings([config])
        }
    }

    @Test(arguments: [
        "client-secret @/run/secrets/client",
        "form username=alice\nform password=@pw.txt",
        "form \"password=\"",
        "-H @headers.txt",
        "header \"X-Team: blue\"",
        "param prompt=login",
        "scope openid",
        "step \"GET https://idp.example/session\"",
        "step \"POST https://idp.example/api/login @login.json\"",
        "step \"POST https://idp.example/api/tenant {\\\"tenant\\\":\\\"blue\\\"}\"",
    ])
    func noLiteralSecret(text: String) throws {
        let entries = try ConfigFile.parse(Array(text.utf8), path: "team.conf")
        #expect(!entries.contains { $0.declaration.holdsLiteralSecret($0.value) })
    }

    @Test func shellQuotedPathInTheFix() throws {
        let directory = NSTemporaryDirectory() + "authcode config \(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let path = directory + "/it's.conf"
        try Data("client-secret abc\n".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        #expect(throws: UsageError("config file '\(path)' holds a secret ('--client-secret' on line 1) and group or others can read it; run 'chmod 600 '\(directory)/it'\\''s.conf''",
                                hint: "Or keep the secret in a file of its own and name that file with @FILE in the config file.")) {
            try Self.settings([path])
        }
    }
}
