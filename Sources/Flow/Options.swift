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
    /// `-o FILE`: the result goes there instead of stdout.
    package var output: String?
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
    /// `--cacert`, else the environment's SSL_CERT_FILE / SSL_CERT_DIR,
    /// else the system's store (HTTP/TrustSource.swift).
    package var trust = TrustSource.system
    package var insecure = false
    package var cert: String?
    package var key: String?
    package var timeout = 30.0
    package var connectTimeout = 10.0
    package var allowHTTP = false
    /// `-K FILE`s as given on the command line (or `AUTHCODE_CONFIG`);
    /// the parser has read them.
    package var configFiles: [String] = []
    package var completion: CompletionShell?
    package var help = false
    package var version = false
    /// `--proxy` and `--noproxy` as given.
    package var proxyURL: String?
    package var noProxy: String?
    /// The proxies of the run: `--proxy`/`--noproxy`, else the
    /// environment's (curl's variables).
    package var proxy = ProxySettings()
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

    // The modern client profile (ProfileOptions.swift, README "Modern client profile").
    /// `--client-key` as given (a path), and the key read from it.
    package var clientKeyFile: String?
    package var clientKey: LoadedKey?
    package var clientKeyID: String?
    package var clientKeyAlg: SigningAlgorithm?
    /// Nil: the issuer when one is known, else the token endpoint's URL.
    package var assertionAud: AssertionAudience?
    package var par = false
    package var requestObject = false
    package var dpop = false
    /// `--dpop-key` as given, and the key read from it; without one, `--dpop`
    /// makes a fresh P-256 key per flow.
    package var dpopKeyFile: String?
    package var dpopKey: LoadedKey?
    package var dpopFor: DPoPTarget?
    package var resources: [String] = []
    package var authorizationDetails: String?
    /// `--front-param`: sent on the front-channel request too, even with PAR
    /// or a request object.
    package var frontParams: [NameValue] = []
    package var fapi2 = false
    /// For the id_token verifier: the algorithms a client profile allows
    /// (`--fapi2`: PS256, ES256, EdDSA), intersected with what it accepts
    /// otherwise; nil when no profile limits them.
    package var profileIDTokenAlgorithms: [String]?
    /// For the id_token verifier: an id_token must carry a verified
    /// signature, whatever else would let it pass unverified (`--fapi2`).
    package var requireSignedIDToken = false
    /// `--fapi2`: the authorization response must carry `iss` (RFC 9207).
    package var requireIss = false

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

/// The shells `--completion` writes a script for.
package enum CompletionShell: String, Sendable, Equatable, CaseIterable {
    case bash, zsh, fish
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
