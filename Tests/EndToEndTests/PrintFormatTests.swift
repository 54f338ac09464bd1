import Foundation
import Testing

/// `--print header`, `expires_at` and `exec-credential` (README.md
/// "Output and exit codes"), and a stdout that cannot be written.
@Suite("Print formats")
struct PrintFormatTests {
    /// The token JSON of a run through the cache, then the same entry
    /// printed another way (no second flow: the values can be compared).
    static func printed(_ fx: Fixture, _ scenario: String, _ field: String, env: [String: String] = [:],
                        extra: [String] = []) async throws -> (token: [String: Any], entry: Data, result: RunResult) {
        let cache = try CacheDir()
        let first = try await run(fx.publicClient(scenario) + cache.flags + extra)
        let token = expectTokenJSON(first)
        let path = try #require(cache.files(".token").first)
        let entry = try Data(contentsOf: URL(fileURLWithPath: path))
        let result = try await run(fx.publicClient(scenario) + cache.flags + extra + ["--print", field], env: env)
        return (token, entry, result)
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

    @Test func header() async throws {
        let fx = try await Fixture.make()
        let (token, _, result) = try await Self.printed(fx, "direct", "header")
        #expect(result.exitCode == 0)
        #expect(result.stdout == "Authorization: Bearer \(token["access_token"] as? String ?? "?")\n")
    }

    @Test func expiresAtCountsFromReceipt() async throws {
        let fx = try await Fixture.make()
        let (_, entry, result) = try await Self.printed(fx, "direct", "expires_at")
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout == Self.rfc3339(try Self.receivedAt(entry) + 3600) + "\n")
    }

    @Test func expiresAtFromAJWTAccessToken() async throws {
        let fx = try await Fixture.make()
        let (token, _, result) = try await Self.printed(fx, "jwt-access", "expires_at")
        let jwt = try #require(token["access_token"] as? String)
        let payload = String(jwt.split(separator: ".")[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        let padded = payload + String(repeating: "=", count: (4 - payload.count % 4) % 4)
        let data = try #require(Data(base64Encoded: padded))
        let claims = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let exp = try #require(claims["exp"] as? Double)
        #expect(result.stdout == Self.rfc3339(exp) + "\n")
    }

    @Test(arguments: ["no-expiry", "token-expires-nan-string", "token-expires-neg-huge", "token-expires-null"])
    func expiresAtUnknownIsExit8(scenario: String) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient(scenario) + ["--print", "expires_at"])
        expectFailure(result, exit: 8, ["the token response says nothing usable about expiry"])
    }

    @Test(arguments: [
        (nil, "client.authentication.k8s.io/v1"),
        (#"{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1beta1","spec":{"interactive":false}}"#,
         "client.authentication.k8s.io/v1beta1"),
        ("not json", "client.authentication.k8s.io/v1"),
    ] as [(String?, String)])
    func execCredentialCarriesTheIDToken(execInfo: String?, apiVersion: String) async throws {
        let fx = try await Fixture.make()
        let env = execInfo.map { ["KUBERNETES_EXEC_INFO": $0] } ?? [:]
        let (token, _, result) = try await Self.printed(fx, "direct", "exec-credential", env: env, extra: ["--scope", "openid"])
        #expect(result.exitCode == 0, "\(result)")
        let object = try #require(jsonObject(result.stdout))
        #expect(object["apiVersion"] as? String == apiVersion)
        #expect(object["kind"] as? String == "ExecCredential")
        let status = try #require(object["status"] as? [String: Any])
        #expect(status["token"] as? String == token["id_token"] as? String)
        #expect((status["expirationTimestamp"] as? String)?.hasSuffix("Z") == true)
    }

    @Test func execCredentialWithoutIDTokenCarriesTheAccessToken() async throws {
        let fx = try await Fixture.make()
        let (token, entry, result) = try await Self.printed(fx, "direct", "exec-credential")
        let expected = #"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"\#(token["access_token"] as? String ?? "?")","expirationTimestamp":"\#(Self.rfc3339(try Self.receivedAt(entry) + 3600))"}}"#
        #expect(result.stdout == expected + "\n")
    }

    @Test func execCredentialOmitsAnUnknownExpiry() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("no-expiry") + ["--print", "exec-credential"])
        let status = try #require(jsonObject(result.stdout)?["status"] as? [String: Any])
        #expect(status["expirationTimestamp"] == nil)
        #expect(status["token"] is String)
    }

    /// `authcode … | true`: the reader is gone before the token is written.
    @Test func closedStdoutIsExit1AndSaysTheCodeWasRedeemed() async throws {
        let fx = try await Fixture.make()
        let binary = try Paths.binary.get()
        let arguments = fx.publicClient("token-slow").map { "'\($0)'" }.joined(separator: " ")
        let result = try await run(["-c", "'\(binary)' \(arguments) | true; echo \"exit ${PIPESTATUS[0]}\""], timeout: 30, executable: "/bin/bash")
        #expect(result.stdout == "exit 1\n", "\(result)")
        #expect(result.stderr == "authcode: error: could not write the result to stdout (closed pipe or full disk); the code was redeemed and its token is lost\n")
        #expect(try fx.hits(to: "token").count == 1)
    }
}
