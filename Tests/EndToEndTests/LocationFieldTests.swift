import Foundation
import Testing

/// Location is a singleton field (RFC 9110 §10.2.2; README "How the walk works", step 3):
/// a redirect with two that differ, one carrying a code, is malformed —
/// exit 8, neither followed, no code redeemed (Walk/Walker.swift). Two
/// identical fields are one. Fixtures/server/location_fields.py.
@Suite("Two Location fields")
struct LocationFieldTests {
    @Test(arguments: ["dup-location-code-first", "dup-location-code-last"])
    func twoThatDifferAreMalformed(scenario: String) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient(scenario))
        #expect(result.exitCode == 8, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "authcode: error: the 302 redirect has 2 Location fields that differ; following neither (\(fx.issuer(scenario))/authorize)\n",
                "\(result)")
        #expect(try fx.hits().map(\.endpoint) == ["authorize"], "neither Location was followed, nothing redeemed")
        #expect(try fx.stats()["codes_redeemed"] == 0)
        expectNoSecrets(in: result, fixture: fx)
    }

    @Test func twoThatAreTheSameAreOne() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("dup-location-same"))
        expectTokenJSON(result)
        #expect(try fx.hits().map(\.endpoint) == ["authorize", "token"])
    }
}
