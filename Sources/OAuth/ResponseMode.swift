import Core
import HTTP

/// Where the authorization response is delivered: OAuth 2.0 Multiple
/// Response Type Encoding Practices (`query`, `fragment`), Form Post
/// Response Mode (`form_post`), and JARM (`jwt` and its `query.jwt`,
/// `fragment.jwt`, `form_post.jwt` forms: the answer signed, in one
/// `response` parameter; OpenID JARM §2.3).
package enum ResponseMode: String, Sendable, Equatable, CaseIterable {
    case query
    case fragment
    case formPost = "form_post"
    case jwt
    case queryJWT = "query.jwt"
    case fragmentJWT = "fragment.jwt"
    case formPostJWT = "form_post.jwt"

    /// A JARM mode: the answer is a JWT verified before it is read (JARMResponse.swift).
    package var isJARM: Bool {
        switch self {
        case .jwt, .queryJWT, .fragmentJWT, .formPostJWT: true
        case .query, .fragment, .formPost: false
        }
    }
}
