import Core
import HTTP

/// The authorization response (RFC 6749 §4.1.2, §4.1.2.1; RFC 9207 `iss`),
/// read from the redirect the walk refused to follow, or from a form_post page.
package struct AuthorizationResponse: Equatable, Sendable {
    package var code: String?
    package var state: String?
    package var iss: String?
    var error: String?
    var errorDescription: String?

    init(code: String? = nil, state: String? = nil, iss: String? = nil, error: String? = nil, errorDescription: String? = nil) {
        self.code = code
        self.state = state
        self.iss = iss
        self.error = error
        self.errorDescription = errorDescription
    }

    /// From the redirect's query, or its fragment when the query has no
    /// answer (response_mode=fragment). A parameter given twice is refused:
    /// RFC 6749 §3.1 forbids it, and picking one would let an injected value win.
    package init(redirect: URIReference, where location: String) throws(OAuthError) {
        let queryFields = redirect.query.map { FormEncoding.decode($0) } ?? []
        let fragmentFields = redirect.fragment.map { FormEncoding.decode($0) } ?? []
        let answers: Set<String> = ["code", "error", "state"]
        let useFragment = !queryFields.contains { answers.contains($0.0) } && fragmentFields.contains { answers.contains($0.0) }
        try self.init(fields: useFragment ? fragmentFields : queryFields, where: location)
    }

    package init(fields: [(String, String)], where location: String) throws(OAuthError) {
        var seen: [String: String] = [:]
        for (name, value) in fields where ["code", "state", "iss", "error", "error_description"].contains(name) {
            if seen[name] != nil {
                throw .repeatedParameter(name, at: location)
            }
            seen[name] = value
        }
        code = seen["code"]
        state = seen["state"]
        iss = seen["iss"]
        error = seen["error"]
        errorDescription = seen["error_description"]
    }
}
