import Testing
@testable import Core
@testable import OAuth
@testable import Flow
@testable import CLI

/// The option parser and the authorization request together: parameters
/// authcode makes itself cannot be duplicated from the command line.
struct ReservedParameterTests {
    /// state, nonce and the PKCE challenge are ours: a --param of that name must
    /// neither replace them nor send the parameter twice (RFC 6749 §3.1: no
    /// parameter more than once). Refusing it at parse time is fine too.
    @Test(arguments: ["state", "nonce", "code_challenge", "code_challenge_method"])
    func paramCannotDuplicateOurValues(name: String) throws {
        let parsed: Options
        do throws(Failure) {
            parsed = try CLI.options(CLI.arguments(["--scope", "openid", "--param", "\(name)=evil"]))
        } catch {
            #expect(error.exitCode == .usage)
            return
        }
        var calls = 0
        let request = AuthorizationRequest(clientID: parsed.clientID, redirectURI: parsed.redirectURI, scope: parsed.scope, pkce: parsed.pkce, responseMode: parsed.responseMode, extra: parsed.params) { count in calls += 1; return [UInt8](repeating: UInt8(calls), count: count) }
        let values = request.parameters.filter { $0.name == name }.map(\.value)
        #expect(values.count == 1)
        #expect(values.first != "evil")
    }
}
