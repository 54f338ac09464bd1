import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import CLI

/// `--print` formats (README.md "Output and exit codes"): one raw field per
/// line, the header, expires_at, exec-credential, the JSON body as
/// received, and a stdout that cannot be written. Moved from
/// EndToEndTests' PrintFormatTests, ClientAuthAndInputTests, SuccessFlowTests,
/// InputEdgeTests and WalkAndTokenFailureTests.
struct PrintFormatRunTests {
    /// A run through the cache, then the same entry printed as `field` (no
    /// second flow: the values can be compared). The token JSON, the cache
    /// entry's bytes and the second run.
    static func printed(_ server: ScriptedServer, _ field: String, env: [String: String] = [:],
                        extra: [String] = []) throws -> (token: [String: Any], entry: Data, ran: Ran) {
        let cache = CacheDir()
        let token = expectToken(authcode(server.publicClient() + cache.flags + extra, server: server), from: server)
        let path = try #require(cache.files(".token").first)
        let entry = try Data(contentsOf: URL(fileURLWithPath: path))
        let ran = authcode(server.publicClient() + cache.flags + extra + ["--print", field], env: env, server: server)
        #expect(server.codesRedeemed == 1, "the second run printed the cached entry")
        return (token, entry, ran)
    }

    /// The receive time the cache recorded (its header line's third word).
    static func receivedAt(_ entry: Data) throws -> Double {
        let header = String(decoding: entry.prefix { $0 != 0x0A }, as: UTF8.self).split(separator: " ")
        return try #require(Double(header[2]))
    }

    static func rfc3339(_ seconds: Double) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss'Z'"
        return formatter.string(from: Date(timeIntervalSince1970: seconds.rounded(.down)))
    }

    @Test(arguments: ["access_token", "refresh_token", "id_token"])
    func printOneField(_ field: String) throws {
        let server = ScriptedServer()
        let ran = authcode(server.publicClient() + ["--scope", "openid", "--print", field], server: server)
        #expect(ran.exit == .success, "\(ran)")
        let value = try #require(server.lastTokenBody.flatMap(jsonObject)?[field] as? String)
        #expect(ran.out == value + "\n", "the raw value on one line")
        #expect(ran.err.isEmpty)
        if field == "id_token" { #expect(value.split(separator: ".").count == 3, "a JWT") }
    }

    @Test func header() throws {
        let (token, _, ran) = try Self.printed(ScriptedServer(), "header")
        #expect(ran.exit == .success)
        #expect(ran.out == "Authorization: Bearer \(token["access_token"] as? String ?? "?")\n")
    }

    @Test func expiresAtCountsFromReceipt() throws {
        let (_, entry, ran) = try Self.printed(ScriptedServer(), "expires_at")
        #expect(ran.exit == .success, "\(ran)")
        #expect(ran.out == Self.rfc3339(try Self.receivedAt(entry) + 3600) + "\n")
    }

    @Test func expiresAtFromAJWTAccessToken() throws {
        let server = ScriptedServer(behaviour: .init(expiresIn: nil, jwtAccessToken: true))
        let (token, _, ran) = try Self.printed(server, "expires_at")
        let jwt = try #require(token["access_token"] as? String)
        let exp = try #require(claims(jwt)?["exp"] as? Double)
        #expect(ran.out == Self.rfc3339(exp) + "\n")
    }

    /// No expires_in, or one that is no lifetime (Fixtures/server/hostile.py's literals).
    @Test(arguments: [nil, #""nan""#, "-1e999", "null"] as [String?])
    func expiresAtUnknownIsExit8(expiresIn: String?) {
        let server = ScriptedServer(behaviour: .init(expiresIn: expiresIn))
        let ran = authcode(server.publicClient() + ["--print", "expires_at"], server: server)
        expectFailure(ran, .malformedResponse, "authcode: error: the token response says nothing usable about expiry"
                      + " (no numeric expires_in, and the access token is not a JWT with exp)\n")
        #expect(ran.sent == ["POST /authorize", "POST /token"])
    }

    @Test(arguments: [
        (nil, "client.authentication.k8s.io/v1"),
        (#"{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1beta1","spec":{"interactive":false}}"#,
         "client.authentication.k8s.io/v1beta1"),
        ("not json", "client.authentication.k8s.io/v1"),
    ] as [(String?, String)])
    func execCredentialCarriesTheIDToken(execInfo: String?, apiVersion: String) throws {
        let env = execInfo.map { ["KUBERNETES_EXEC_INFO": $0] } ?? [:]
        let (token, _, ran) = try Self.printed(ScriptedServer(), "exec-credential", env: env, extra: ["--scope", "openid"])
        #expect(ran.exit == .success, "\(ran)")
        let object = try #require(ran.json)
        #expect(object["apiVersion"] as? String == apiVersion)
        #expect(object["kind"] as? String == "ExecCredential")
        let status = try #require(object["status"] as? [String: Any])
        #expect(status["token"] as? String == token["id_token"] as? String)
        #expect((status["expirationTimestamp"] as? String)?.hasSuffix("Z") == true)
    }

    @Test func execCredentialWithoutIDTokenCarriesTheAccessToken() throws {
        let (token, entry, ran) = try Self.printed(ScriptedServer(), "exec-credential")
        let expected = #"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"\#(token["access_token"] as? String ?? "?")","expirationTimestamp":"\#(Self.rfc3339(try Self.receivedAt(entry) + 3600))"}}"#
        #expect(ran.out == expected + "\n")
    }

    @Test func execCredentialOmitsAnUnknownExpiry() throws {
        let server = ScriptedServer(behaviour: .init(expiresIn: nil))
        let ran = authcode(server.publicClient() + ["--print", "exec-credential"], server: server)
        let token = try #require(server.lastTokenBody.flatMap(jsonObject)?["access_token"] as? String)
        #expect(ran.out == #"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"\#(token)"}}"# + "\n")
    }

    @Test func expiresInAsStringIsPassedThroughUntouched() {
        let server = ScriptedServer(behaviour: .init(expiresIn: #""3600""#))
        let ran = authcode(server.publicClient(), server: server)
        let object = expectToken(ran, from: server)
        #expect(object["expires_in"] as? String == "3600", "stdout is the body exactly as received")
        #expect(ran.out.contains(#""expires_in":"3600""#))
    }

    @Test func prettyTokenBodyIsPrintedOnOneLine() throws {
        let server = ScriptedServer(behaviour: .init(rewrite: { body in
            let object = jsonObject(body) ?? [:]
            let data = try! JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
            return String(decoding: data, as: UTF8.self) + "\n"
        }))
        let ran = authcode(server.publicClient(), server: server)
        #expect(ran.exit == .success, "\(ran)")
        let sent = try #require(server.lastTokenBody)
        #expect(sent.filter { $0 == "\n" }.count > 4, "the server's body is pretty-printed")
        #expect(ran.out.filter { $0 == "\n" }.count == 1 && ran.out.hasSuffix("\n"), "exactly one line\n\(ran)")
        #expect(jsonObject(ran.out)?["token_type"] as? String == "Bearer")
        #expect(NSDictionary(dictionary: jsonObject(ran.out) ?? [:]).isEqual(to: jsonObject(sent) ?? [:]), "the same JSON value")
    }

    @Test func closedStdoutAfterRedemptionIsExit1() {
        let server = ScriptedServer()
        let ran = authcode(server.publicClient(), server: server, stdoutClosed: true)
        expectFailure(ran, .outputFailed, "authcode: error: could not write the result to stdout (closed pipe or full disk); the code was redeemed and its token is lost\n")
        #expect(server.requests(to: "/token").count == 1)
        expectNoSecrets(ran, server: server)
    }

    @Test func closedStdoutWithPrintCodeSaysNotRedeemed() {
        let server = ScriptedServer()
        let ran = authcode(server.publicClient() + ["--print", "code"], server: server, stdoutClosed: true)
        expectFailure(ran, .outputFailed, "authcode: error: could not write the result to stdout (closed pipe or full disk); the code was not redeemed\n")
        #expect(server.requests(to: "/token").isEmpty)
    }

    @Test func missingIdTokenForPrintIdToken() {
        let server = ScriptedServer()
        let ran = authcode(server.publicClient() + ["--print", "id_token"], server: server)
        expectFailure(ran, .malformedResponse, "authcode: error: the token response has no id_token to print\n")
    }
}
