import Foundation
import Testing

/// Issue 4's bad-input table: every row is hostile or mistaken input from
/// the server (its command-line rows run in-process: RunTests/UsageRunTests).
/// Each must end with its documented exit code, one error line, empty stdout
/// and no secret on stderr — never a trap, a hang or a partial result. Rows
/// run with -v so the trace is checked too.
@Suite("Bad input table")
struct BadInputTableTests {
    struct Row: Sendable, CustomTestStringConvertible {
        /// A fixture scenario.
        let scenario: String
        /// Arguments added after the scenario's endpoints and client.
        let arguments: [String]
        let exit: Int32
        let says: String
        var testDescription: String { "\(scenario) \(arguments.joined(separator: " ")) → \(exit)" }
    }

    static let serverSide: [Row] = [
        Row(scenario: "error", arguments: [], exit: 4, says: "error=access_denied"),
        // State before error: an error= without our state is not believed (exit 5, text unshown).
        Row(scenario: "error-no-state", arguments: [], exit: 5, says: "has no state"),
        Row(scenario: "wrong-state", arguments: [], exit: 5, says: "state mismatch"),
        Row(scenario: "dup-code", arguments: [], exit: 5, says: "'code' more than once"),
        Row(scenario: "answer-elsewhere", arguments: [], exit: 5, says: "not the redirect_uri"),
        Row(scenario: "idtoken-wrong-aud", arguments: ["--scope", "openid"], exit: 5, says: "id_token aud"),
        Row(scenario: "idtoken-expired", arguments: ["--scope", "openid"], exit: 5, says: "id_token has expired"),
        Row(scenario: "idtoken-wrong-nonce", arguments: ["--scope", "openid"], exit: 5, says: "nonce"),
        Row(scenario: "idtoken-aud-array-no-azp", arguments: ["--scope", "openid"], exit: 5, says: "azp"),
        Row(scenario: "idtoken-bad", arguments: ["--scope", "openid"], exit: 8, says: "the id_token is not a JWT: the JWS header is not base64url"),
        Row(scenario: "no-location", arguments: [], exit: 6, says: "without a Location header"),
        Row(scenario: "bad-location", arguments: [], exit: 6, says: "not a URI"),
        Row(scenario: "loop", arguments: [], exit: 6, says: "redirect loop"),
        Row(scenario: "long-chain", arguments: [], exit: 6, says: "after 20 hops"),
        Row(scenario: "long-chain", arguments: ["--max-hops", "3"], exit: 6, says: "after 3 hops"),
        Row(scenario: "elsewhere", arguments: [], exit: 6, says: "no form"),
        Row(scenario: "non-utf8", arguments: [], exit: 6, says: "no form"),
        Row(scenario: "login-consent", arguments: [], exit: 6, says: "asks for username, password"),
        Row(scenario: "login-consent", arguments: ["--form", "username=alice", "--form", "password=wrong-password"], exit: 6, says: "login rejected"),
        Row(scenario: "login-consent", arguments: ["--form", "username=alice", "--form", "password=wonderland", "--submit", "nope"], exit: 6,
            says: "no submit control named 'nope'"),
        Row(scenario: "json-login", arguments: [], exit: 6, says: "asks for"),
        Row(scenario: "token-400", arguments: [], exit: 7, says: "invalid_grant"),
        Row(scenario: "token-401", arguments: [], exit: 7, says: "invalid_client"),
        Row(scenario: "token-500", arguments: [], exit: 7, says: "answered 500"),
        Row(scenario: "token-bad-json", arguments: [], exit: 8, says: "not a JSON object"),
        Row(scenario: "token-no-access-token", arguments: [], exit: 8, says: "no access_token"),
        Row(scenario: "token-huge", arguments: [], exit: 8, says: "larger than 4 MiB"),
        Row(scenario: "token-deep", arguments: [], exit: 8, says: "not a JSON object"),
        Row(scenario: "html-huge", arguments: [], exit: 8, says: "larger than 4 MiB"),
        Row(scenario: "token-slow", arguments: ["--timeout", "0.5"], exit: 3, says: "timed out"),
        Row(scenario: "token-stall", arguments: ["--timeout", "0.5"], exit: 3, says: "timed out"),
        Row(scenario: "token-drip", arguments: ["--timeout", "0.5"], exit: 3, says: "timed out"),
        Row(scenario: "authorize-slow", arguments: ["--timeout", "0.5"], exit: 3, says: "timed out"),
        Row(scenario: "direct", arguments: ["--print", "id_token"], exit: 8, says: "no id_token to print"),
        Row(scenario: "discovery-wrong-issuer", arguments: ["--discover"], exit: 5, says: "not '"),
        Row(scenario: "discovery-iss-missing", arguments: ["--discover"], exit: 5, says: "no iss"),
        Row(scenario: "direct", arguments: ["--discover"], exit: 8, says: "no discovery document"),
    ]

    @Test(arguments: serverSide)
    func row(_ row: Row) async throws {
        var arguments = row.arguments
        let fx = try await Fixture.make("bad-\(row.scenario)")
        // `--discover` (a marker, not a flag) asks for --issuer instead of endpoints.
        if let marker = arguments.firstIndex(of: "--discover") {
            arguments.remove(at: marker)
            arguments = ["--issuer", fx.issuer(row.scenario), "--client-id", "demo-app", "--redirect-uri", Fixture.redirect] + arguments
        } else {
            arguments = fx.confidential(row.scenario) + arguments
        }
        let result = try await run(["-v"] + arguments, env: Fixture.demoSecretEnv, timeout: 20)
        expectFailure(result, exit: row.exit, [row.says])
        expectNoSecrets(in: result, fixture: fx, extra: ["wrong-password"])
        #expect(!result.timedOut, "\(result)")
    }
}
