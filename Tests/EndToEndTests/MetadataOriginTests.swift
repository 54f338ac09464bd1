import Foundation
import Testing

/// Only the endpoints authcode uses are trusted (README "Security", credentials only to trusted origins;
/// OAuth/TrustedEndpoints.swift): metadata naming a revocation,
/// registration, end-session or unknown `*_endpoint` (or an mTLS alias of
/// one) on another origin earns that origin nothing, while its
/// `userinfo_endpoint` there does. Fixtures/server/metadata_origins.py: the
/// login form posts to that other origin.
@Suite("Trusted origins from the metadata")
struct MetadataOriginTests {
    static let login = ["--form", "username=alice", "--form", "password=@-"]

    func flow(_ fx: Fixture, _ scenario: String) -> [String] {
        ["--issuer", fx.issuer(scenario), "--client-id", "public-app", "--redirect-uri", Fixture.redirect]
    }

    @Test func endpointsAuthcodeDoesNotUseTrustNothing() async throws {
        let fx = try await Fixture.make()
        let other = try await fx.otherHost()
        try fx.useOther(other)
        let result = try await run(flow(fx, "discovery-other-revocation") + Self.login + ["-q"], stdin: "wonderland\n")
        #expect(result.exitCode == 6, "\(result)")
        #expect(result.errorLine == "authcode: error: refusing to send the filled-in form (--form values) to \(other), which is not a trusted origin (\(other)/t/\(fx.run)/discovery-other-revocation/login)",
                "\(result)")
        #expect(!(try fx.hits()).contains { $0.listener == Fixture.listener(other) }, "nothing reached the other origin")
    }

    @Test func theUserinfoEndpointsOriginIsTrusted() async throws {
        let fx = try await Fixture.make()
        let other = try await fx.otherHost()
        try fx.useOther(other)
        let result = try await run(flow(fx, "discovery-other-userinfo") + Self.login, stdin: "wonderland\n")
        expectTokenJSON(result)
        #expect(try fx.hits().contains { $0.listener == Fixture.listener(other) && $0.endpoint == "login" && $0.form["password"] == "wonderland" })
    }
}
