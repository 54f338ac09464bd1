import Core
import HTTP
import JOSE
import OAuth
import Walk

/// Everything the user asked for, parsed and validated. Built only by the
/// CLI's option table and rules, whose initial values here are the
/// defaults `--help` shows (typed once); once validated it is passed by
/// value and never changed: the flow reads it and never re-checks it.
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
    /// `--totp-secret`, as given (base32 or an otpauth:// URI); it parsed
    /// when the options were validated.
    package var totpSecret: String?
    package var totpField: String?
    /// `--trust-origin`s, each `scheme://host[:port]` in lower case.
    package var trustOrigins: [String] = []
    package var submit: SubmitChoice?
    package var steps: [Step] = []
    package var maxHops = 10
    package var print: PrintField = .json
    package var verbose = false
    package var quiet = false
    package var refreshToken: String?
    package var cache = false
    package var cacheDir: String?
    package var minTTL = 60
    package var forget = false
    package var users: String?
    package var parallel = 8
    package var shard: Shard?
    package var headers: [HTTPHeader] = []
    package var connectTo: [ConnectTo] = []
    package var cacert: String?
    package var insecure = false
    package var cert: String?
    package var key: String?
    package var timeout = 30.0
    package var connectTimeout = 10.0
    package var allowHTTP = false
    package var help = false
    package var version = false
    /// Hints for stderr found while parsing (a secret typed on the command line).
    package var warnings: [String] = []
    // Verification (OIDC Core §3.1.3.7, JARM, userinfo): Flow/Verification/.
    /// `--jwks`: the key set itself (a file, or JSON given inline), or its URL.
    package var jwks: KeySetSource?
    /// `--id-token-alg`: the only algorithms accepted (`none` only alone).
    package var idTokenAlgs: [JWSAlgorithm]?
    /// `--trust-audience`: audiences an id_token may name besides the client.
    package var trustAudiences: [String] = []
    package var clockSkew = 60.0
    package var userinfo = false

    package init() {}

    package var verbosity: Verbosity {
        verbose ? .verbose : quiet ? .quiet : .normal
    }

    /// The `--totp-secret` seed, parsed.
    package var totp: TOTP? {
        totpSecret.flatMap { try? TOTP.parse($0) }
    }
}

package enum PrintField: String, Sendable, Equatable, CaseIterable {
    case json
    case accessToken = "access_token"
    case idToken = "id_token"
    case refreshToken = "refresh_token"
    case header
    case expiresAt = "expires_at"
    case execCredential = "exec-credential"
    case code
    /// The verified id_token's payload, one JSON line.
    case claims
    /// The userinfo answer (a signed one's verified payload), one JSON line.
    case userinfo
}

/// `--shard K/N`: this machine takes records K, K+N, K+2N… (1-based).
package struct Shard: Equatable, Sendable {
    package var index: Int
    package var count: Int

    package init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Whether record `number` (1 = the first) is this shard's.
    package func takes(_ number: Int) -> Bool {
        (number - 1) % count == index - 1
    }
}

package enum Verbosity: Sendable, Equatable {
    case quiet, normal, verbose
}
