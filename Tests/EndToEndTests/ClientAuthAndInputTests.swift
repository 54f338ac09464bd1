import Foundation
import Testing

/// `--print` through the built binary: what it prints is enough for a later
/// step to redeem the code at the real fixture. Client authentication and
/// value sources run in-process (RunTests/ClientAuthRunTests, InputRunTests).
@Suite("--print code and fields")
struct ClientAuthAndInputTests {
    @Test func printCodeStopsBeforeTheTokenRequest() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("iss") + ["--print", "code", "--expect-iss", fx.issuer("iss")])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.hasSuffix("\n") && result.stdout.filter { $0 == "\n" }.count == 1, "\(result)")
        let object = try #require(jsonObject(result.stdout), "\(result)")
        #expect(Set(object.keys) == ["code", "state", "iss", "code_verifier", "redirect_uri"], "\(object)")
        #expect(object["iss"] as? String == fx.issuer("iss"))
        #expect(object["redirect_uri"] as? String == Fixture.redirect)
        let hits = try fx.hits()
        #expect(!hits.contains { $0.endpoint == "token" }, "--print code must not redeem: \(hits)")
        #expect(object["state"] as? String == hits.first?.form["state"])
        // The printed values are enough for a later step to redeem the code.
        let code = try #require(object["code"] as? String), verifier = try #require(object["code_verifier"] as? String)
        let redeemed = try redeem(at: fx.issuer("iss") + "/token", code: code, verifier: verifier)
        #expect(redeemed.contains("\"access_token\""), "\(redeemed)")
    }

    /// POSTs the token request with curl, as the "later step" of --print code would.
    private func redeem(at url: String, code: String, verifier: String) throws -> String {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        curl.arguments = ["curl", "-s", url, "--data-urlencode", "grant_type=authorization_code", "--data-urlencode", "code=\(code)",
                          "--data-urlencode", "redirect_uri=\(Fixture.redirect)", "--data-urlencode", "code_verifier=\(verifier)",
                          "--data-urlencode", "client_id=public-app"]
        let pipe = Pipe()
        curl.standardOutput = pipe
        try curl.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        curl.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
