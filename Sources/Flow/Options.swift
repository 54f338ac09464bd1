import Core
import HTTP
import OAuth
import Walk

/// Everything the user asked for, parsed and validated. Built only by
/// `ArgumentParser`; the flow reads it and never re-checks it.
package struct Options: Equatable, Sendable {
    package var issuer: String?
    package var authorizeURL: String?
    package var tokenURL: String?
    package var expectIss: String?
    package var clientID = ""
    package var clientSecret: String?
    package var authMethod: ClientAuthMethod = .none
    package var redirectURI = ""
    package var scope: String?
    package var params: [NameValue] = []
    package var pkce: PKCEMethod = .s256
    package var responseMode: ResponseMode?
    package var method: AuthorizationMethod = .post
    package var form: [NameValue] = []
    package var submit: SubmitChoice?
    package var steps: [Step] = []
    package var maxHops = 10
    package var print: PrintField = .json
    package var verbosity: Verbosity = .normal
    package var headers: [HTTPHeader] = []
    package var connectTo: [String] = []
    package var cacert: String?
    package var insecure = false
    package var cert: String?
    package var key: String?
    package var timeout = 30.0
    package var connectTimeout = 10.0
    package var allowHTTP = false
    /// Hints for stderr found while parsing (a secret typed on the command line).
    package var warnings: [String] = []

    package init() {}
}





package enum PrintField: String, Sendable, Equatable, CaseIterable {
    case json
    case accessToken = "access_token"
    case idToken = "id_token"
    case refreshToken = "refresh_token"
    case code
}

package enum Verbosity: Sendable, Equatable {
    case quiet, normal, verbose
}

