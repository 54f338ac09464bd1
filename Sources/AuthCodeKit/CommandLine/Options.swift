/// Everything the user asked for, parsed and validated. Built only by
/// `ArgumentParser`; the flow reads it and never re-checks it.
public struct Options: Equatable, Sendable {
    public var issuer: String?
    public var authorizeURL: String?
    public var tokenURL: String?
    public var expectIss: String?
    public var clientID = ""
    public var clientSecret: String?
    public var authMethod: ClientAuthMethod = .none
    public var redirectURI = ""
    public var scope: String?
    public var params: [NameValue] = []
    public var pkce: PKCEMethod = .s256
    public var responseMode: ResponseMode?
    public var method: AuthorizationMethod = .post
    public var form: [NameValue] = []
    public var submit: SubmitChoice?
    public var steps: [Step] = []
    public var maxHops = 10
    public var print: PrintField = .json
    public var verbosity: Verbosity = .normal
    public var headers: [HTTPHeader] = []
    public var connectTo: [String] = []
    public var cacert: String?
    public var insecure = false
    public var cert: String?
    public var key: String?
    public var timeout = 30.0
    public var connectTimeout = 10.0
    public var allowHTTP = false
    /// Hints for stderr found while parsing (a secret typed on the command line).
    public var warnings: [String] = []

    public init() {}
}

public struct NameValue: Equatable, Sendable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    public init(name: String, value: String) {
        self.init(name, value)
    }
}

/// RFC 6749 §2.3.1 / OIDC Core §9 names.
public enum ClientAuthMethod: String, Sendable, Equatable, CaseIterable {
    case clientSecretBasic = "client_secret_basic"
    case clientSecretPost = "client_secret_post"
    case none
}

/// OAuth 2.0 Multiple Response Type Encoding Practices / Form Post Response Mode.
public enum ResponseMode: String, Sendable, Equatable, CaseIterable {
    case query
    case fragment
    case formPost = "form_post"
}

public enum AuthorizationMethod: String, Sendable, Equatable, CaseIterable {
    case post = "POST"
    case get = "GET"
}

public enum PrintField: String, Sendable, Equatable, CaseIterable {
    case json
    case accessToken = "access_token"
    case idToken = "id_token"
    case refreshToken = "refresh_token"
    case code
}

public enum Verbosity: Sendable, Equatable {
    case quiet, normal, verbose
}

/// A `--step 'METHOD URL [BODY]'` request sent before the authorization request.
public struct Step: Equatable, Sendable {
    public var method: String
    public var url: String
    public var body: String?

    public init(method: String, url: String, body: String?) {
        self.method = method
        self.url = url
        self.body = body
    }

    public var isJSON: Bool { body?.trimmed.hasPrefix("{") ?? false }
}
