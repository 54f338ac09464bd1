import Foundation
import Testing

/// Servers that echo what they receive (README.md "Security rules":
/// redaction; Core/Redaction/Redactor.swift). Whatever spelling a secret comes back
/// in, stderr shows `[redacted]`, never the secret or a piece of it.
@Suite("Echoed secrets are redacted in every spelling")
struct EchoedSecretTests {
    /// The spellings the echo scenarios use (Fixtures/server/echo.py), and a few more.
    static func spellings(_ secret: String) -> [String] {
        let alnum = CharacterSet.alphanumerics
        let pct = secret.addingPercentEncoding(withAllowedCharacters: alnum) ?? secret
        let html = secret.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#x27;")
        let json = String(data: try! JSONEncoder().encode(secret), encoding: .utf8)!.dropFirst().dropLast()
        return [secret, pct, pct.lowercased(), pct.replacingOccurrences(of: "%20", with: "+"), html, String(json),
                Data(secret.utf8).base64EncodedString()]
            + secret.split(separator: " ").map(String.init).filter { $0.count >= 6 }
    }

    func expectRedacted(_ secrets: [String], in result: RunResult, sourceLocation: SourceLocation = #_sourceLocation) {
        for secret in secrets {
            for spelling in Self.spellings(secret) where result.stderr.contains(spelling) {
                Issue.record("'\(spelling)' (a spelling of '\(secret)') is on stderr\n\(result)", sourceLocation: sourceLocation)
            }
        }
    }

    /// A password with every character encoders treat differently, and an -H Basic credential.
    @Test func echoPage() async throws {
        let fx = try await Fixture.make()
        let password = try TempFile(#"my pass/phrase+%é"<>&'x"#)
        let basic = "Basic " + Data("alice:hunter two".utf8).base64EncodedString()
        let result = try await run(fx.publicClient("echo-page") + ["--form", "username=alice", "--form", "password=@\(password.path)",
                                                                   "-H", "Authorization: \(basic)", "-v"])
        #expect(result.exitCode == 6, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.errorLine?.hasPrefix("authcode: error: unexpected 400 answer: Bad Request field password: raw=[redacted] html=[redacted] pct=[redacted] pct-lower=[redacted] plus=") == true, "\(result)")
        expectRedacted([#"my pass/phrase+%é"<>&'x"#, "alice:hunter two", "hunter two", basic, "echosessionsecret42"], in: result)
        expectNoSecrets(in: result, fixture: fx)
    }

    /// A nameless cookie and a session cookie, echoed raw, HTML-escaped and percent-encoded.
    @Test func echoCookie() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("echo-cookie") + ["--form", "username=alice", "--form", "password=wonderland", "-v"])
        #expect(result.exitCode == 6, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("< Set-Cookie: =[redacted]\n"), "a nameless cookie is all value\n\(result)")
        expectRedacted(["abcdefsecretvalue", "sessionsecretvalue42", "wonderland"], in: result)
    }

    /// The token endpoint echoes the Basic header, its decoded id:secret and the body.
    @Test func echoToken() async throws {
        let fx = try await Fixture.make()
        let secret = "p@ss:w/rd+ =%&"
        let result = try await run(fx.endpoints("echo-token") + ["--client-id", "weird:app id", "--redirect-uri", Fixture.redirect],
                                   env: ["AUTHCODE_CLIENT_SECRET": secret])
        #expect(result.exitCode == 7, "\(result)")
        #expect(result.stdout.isEmpty)
        let token = try #require(try fx.hits(to: "token").first)
        let code = try #require(token.form["code"]), verifier = try #require(token.form["code_verifier"])
        #expect(result.errorLine == "authcode: error: the login worked, but the token endpoint refused: 400 error=invalid_client: Authorization: Basic [redacted]; decoded: weird:app id:[redacted]; body: grant_type=authorization_code&code=[redacted]&redirect_uri=http%3A%2F%2F127.0.0.1%3A8765%2Fcallback&code_verifier=[redacted] (\(fx.issuer("echo-token"))/token)", "\(result)")
        expectRedacted([secret, code, verifier, try #require(token.headers["authorization"])], in: result)
    }

    /// A --step body value echoed by the server in its error.
    @Test func stepBodyValuesAreSecrets() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("json-login") + ["--step", #"POST \#(fx.issuer("json-login"))/api/login {"username":"alice","password":"not-the-pass word"}"#])
        #expect(result.exitCode == 6, "\(result)")
        expectRedacted(["not-the-pass word"], in: result)
    }
}
