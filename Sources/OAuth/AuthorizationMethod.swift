import Core
import HTTP

/// How the authorization request travels: RFC 6749 §3.1 requires servers to take GET and allows POST.
package enum AuthorizationMethod: String, Sendable, Equatable, CaseIterable {
    case post = "POST"
    case get = "GET"
}
