import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import CLI
#if canImport(Glibc)
import Glibc
#endif

/// Where values come from (README.md "Usage"): flags, AUTHCODE_* variables,
/// @FILE and @-; a flag always beats the environment, `@@` is a literal `@`,
/// and a silent FIFO is given up, never waited on. Moved from
/// EndToEndTests/ClientAuthAndInputTests and InputValueTests.
struct InputRunTests {
    @Test func everythingFromTheEnvironment() throws {
        let server = ScriptedServer()
        let ran = authcode([], env: [
            "AUTHCODE_AUTHORIZE_URL": server.authorizeURL,
            "AUTHCODE_TOKEN_URL": server.tokenURL,
            "AUTHCODE_CLIENT_ID": "demo-app",
            "AUTHCODE_CLIENT_SECRET": "demo-secret",
            "AUTHCODE_REDIRECT_URI": ScriptedServer.redirect,
            "AUTHCODE_SCOPE": "openid email",
            "AUTHCODE_PRINT": "access_token",
        ], server: server)
        #expect(ran.exit == .success, "\(ran)")
        let token = try #require(server.lastTokenBody.flatMap(jsonObject)?["access_token"] as? String)
        #expect(ran.out == token + "\n")
        #expect(ran.err.isEmpty)
        #expect(server.requests(to: "/token").first?.header("Authorization") != nil)
        #expect(server.requests(to: "/authorize").first?.form["scope"] == "openid email")
    }

    @Test func aFlagWinsOverTheEnvironment() throws {
        let server = ScriptedServer()
        let ran = authcode(server.confidential(), env: ["AUTHCODE_CLIENT_ID": "nobody", "AUTHCODE_CLIENT_SECRET": "demo-secret", "AUTHCODE_PKCE": "off"],
                           server: server)
        expectToken(ran, from: server)
        let authorize = try #require(server.requests(to: "/authorize").first)
        #expect(authorize.form["client_id"] == "demo-app")
        #expect(authorize.form["code_challenge"] == nil, "AUTHCODE_PKCE=off applies when no flag says otherwise")
    }

    @Test func clientSecretFromFileDropsTheTrailingNewline() throws {
        let server = ScriptedServer()
        let file = try TempFile("demo-secret\n")
        let ran = authcode(server.confidential() + ["--client-secret", "@" + file.path], server: server)
        expectToken(ran, from: server)
        #expect(ran.err.isEmpty, "no command-line-secret hint for @FILE\n\(ran)")
        #expect(server.requests(to: "/token").first?.header("Authorization") == "Basic " + Data("demo-app:demo-secret".utf8).base64EncodedString())
    }

    @Test func clientSecretFromStdin() {
        let server = ScriptedServer()
        let ran = authcode(server.confidential() + ["--client-secret", "@-", "--auth-method", "client_secret_post"], stdin: "demo-secret\n", server: server)
        expectToken(ran, from: server)
        #expect(server.requests(to: "/token").first?.form["client_secret"] == "demo-secret")
    }

    @Test func fifoWithoutAWriterGivesUpAfterTheTimeout() {
        let fifo = NSTemporaryDirectory() + "authcode-fifo-\(UUID().uuidString.prefix(8))"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let ran = authcode(["--authorize-url", "http://127.0.0.1:9/a", "--token-url", "http://127.0.0.1:9/t", "--client-id", "a",
                            "--redirect-uri", ScriptedServer.redirect, "--timeout", "0.5", "--client-secret", "@" + fifo])
        expectFailure(ran, .usage, "authcode: error: cannot read '\(fifo)' for '--client-secret': it yielded nothing to read within 0.5 s (--timeout);"
                      + " is a writer missing?\nSee 'authcode --help'.\n")
        #expect(ran.requests.isEmpty)
    }

    @Test func doubleAtIsALiteralAt() {
        let server = ScriptedServer()
        let viaFlag = authcode(server.publicClient() + ["--param", "audience=@@api", "--print", "code"], server: server)
        #expect(viaFlag.exit == .success, "\(viaFlag)")
        #expect(server.requests(to: "/authorize").last?.form["audience"] == "@api")
        let viaEnv = authcode(server.publicClient() + ["--print", "code"], env: ["AUTHCODE_SCOPE": "@@admin"], server: server)
        #expect(viaEnv.exit == .success, "\(viaEnv)")
        #expect(server.requests(to: "/authorize").last?.form["scope"] == "@admin")
    }

    @Test(arguments: [
        (["-q"], ["AUTHCODE_VERBOSE": "1"]),
        (["-v"], ["AUTHCODE_QUIET": "1"]),
    ])
    func aFlagBeatsAConflictingEnvironmentVariable(flags: [String], env: [String: String]) {
        let server = ScriptedServer()
        let ran = authcode(server.publicClient() + flags, env: env, server: server)
        expectToken(ran, from: server)
        if flags == ["-q"] {
            #expect(ran.err.isEmpty, "\(ran)")
        } else {
            #expect(ran.err.hasPrefix("* authorization request\n> POST https://as.example/authorize\n"), "\(ran)")
        }
    }
}
