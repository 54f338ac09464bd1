import Core
import HTTP
import OAuth
import Flow

/// The values of the modern client profile's options, checked before any
/// request (OptionTable.profile).
extension OptionValues {
    /// `issuer`, `endpoint`, or an absolute URL to name literally.
    static func assertionAudience(_ text: String, _ context: ValueContext) throws(UsageError) -> AssertionAudience {
        switch text {
        case "issuer": return .issuer
        case "endpoint": return .endpoint
        default:
            guard let reference = URIReference(text), reference.isAbsolute, reference.fragment == nil else {
                throw context.invalid(text, expected: "issuer, endpoint, or an absolute URL")
            }
            return .literal(text)
        }
    }

    /// `METHOD URL`: an HTTP method token and an absolute http(s) URL.
    static func dpopTarget(_ text: String, _ context: ValueContext) throws(UsageError) -> DPoPTarget {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].utf8.allSatisfy({ ASCII.isLetter($0) }) else {
            throw context.invalid(text, expected: "'METHOD URL', e.g. 'GET https://api.example/me'")
        }
        let url = String(parts[1])
        guard let reference = URIReference(url), let scheme = reference.scheme?.lowercased(), scheme == "http" || scheme == "https",
              reference.host?.isEmpty == false else {
            throw UsageError("invalid URL '\(url)' in '\(context.flag)': expected an absolute http or https URL")
        }
        return DPoPTarget(method: parts[0].uppercased(), url: url)
    }

    /// RFC 9449 §8.1: `1*NQCHAR`, printable ASCII without space, `"` or `\`
    /// — what a proof's `nonce` may hold, as DPoPNonceChallenge reads a
    /// server's `DPoP-Nonce`.
    static func dpopNonce(_ text: String, _ context: ValueContext) throws(UsageError) -> String {
        guard DPoPNonceChallenge.isNonce(text) else {
            throw context.invalid(nil, expected: "a DPoP-Nonce value: printable ASCII without spaces, quotes or backslashes (RFC 9449 §8.1)")
        }
        return text
    }

    /// RFC 8707 §2: an absolute URI without a fragment.
    static func resource(_ text: String, _ context: ValueContext) throws(UsageError) -> String {
        guard let reference = URIReference(text), reference.isAbsolute, reference.fragment == nil else {
            throw context.invalid(text, expected: "an absolute URI without a fragment (RFC 8707)")
        }
        return text
    }

    /// RFC 9396 §2: kept as given once it is a non-empty JSON array of
    /// objects with a string `type`.
    static func authorizationDetails(_ text: String, _ context: ValueContext) throws(UsageError) -> String {
        if let problem = AuthorizationDetails.problem(in: text) {
            throw UsageError("invalid value for '\(context.flag)': \(problem); expected a JSON array of objects, each with a string \"type\" (RFC 9396)")
        }
        return text
    }
}
