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
        do throws(UsageError) {
            parsed = try CLI.options(CLI.arguments(["--scope", "openid", "--param", "\(name)=evil"]))
        } catch {
            #expect(ErrorReport(.usage(error)).exitCode == .usage)
            return
        }
        var calls = 0
        let request = AuthorizationRequest(clientID: parsed.flow.client.id, redirectURI: parsed.flow.client.redirectURI, scope: parsed.flow.request.scope, pkce: parsed.flow.request.pkce, responseMode: parsed.flow.request.responseMode, extra: parsed.flow.request.params) { count in calls += 1; return [UInt8](repeating: UInt8(calls), count: count) }
        let values = request.parameters.filter { $0.name == name }.map(\.value)
        #expect(values.count == 1)
        #expect(values.first != "evil")
    }

    /// One list (OAuth/ReservedParameter.swift) for every way a name comes
    /// in: each name authcode sets is refused as --param and as --form,
    /// naming the flag.
    @Test(arguments: ReservedParameter.names.keys.sorted())
    func everyReservedNameIsRefusedAsParamAndForm(name: String) {
        for flag in ["--param", "--form"] {
            do throws(UsageError) {
                _ = try CLI.options(CLI.arguments(["--scope", "openid", flag, "\(name)=x"]))
                Issue.record("\(flag) \(name) was accepted")
            } catch {
                #expect(ErrorReport(.usage(error)).exitCode == .usage)
                #expect(error.message.hasPrefix("'\(flag) \(name)=…' is not allowed: authcode sets '\(name)' in the authorization request itself ("), "\(error.message)")
            }
        }
    }

    /// Every parameter the authorization request sets on its own is in the list.
    @Test func listCoversWhatTheRequestSets() {
        let request = AuthorizationRequest(clientID: "app", redirectURI: "http://127.0.0.1:1/cb", scope: "openid", pkce: .s256,
                                           responseMode: .formPost, extra: [])
        for parameter in request.parameters {
            #expect(ReservedParameter.instead(of: parameter.name) != nil, "\(parameter.name)")
        }
    }
}
