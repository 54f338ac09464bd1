import Core
import HTTP

/// Where the authorization response is delivered (OAuth 2.0 Multiple Response Types; Form Post Response Mode).
/// OAuth 2.0 Multiple Response Type Encoding Practices / Form Post Response Mode.
package enum ResponseMode: String, Sendable, Equatable, CaseIterable {
    case query
    case fragment
    case formPost = "form_post"
}
