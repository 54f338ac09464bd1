/// Every option's long name, as a type: the validator asks for
/// `.clientID`, never for a string that could be mistyped.
package enum OptionName: String, Sendable, CaseIterable {
    case issuer
    case authorizeURL = "authorize-url"
    case tokenURL = "token-url"
    case expectIss = "expect-iss"
    case clientID = "client-id"
    case clientSecret = "client-secret"
    case authMethod = "auth-method"
    case redirectURI = "redirect-uri"
    case scope
    case param
    case pkce
    case responseMode = "response-mode"
    case method
    case form
    case totpSecret = "totp-secret"
    case totpField = "totp-field"
    case trustOrigin = "trust-origin"
    case submit
    case step
    case maxHops = "max-hops"
    case print
    case refreshToken = "refresh-token"
    case cache
    case cacheDir = "cache-dir"
    case minTTL = "min-ttl"
    case forget
    case users
    case parallel
    case shard
    case verbose
    case quiet
    case header
    case connectTo = "connect-to"
    case cacert
    case insecure
    case cert
    case key
    case timeout
    case connectTimeout = "connect-timeout"
    case allowHTTP = "allow-http"
    case help
    case version
}
