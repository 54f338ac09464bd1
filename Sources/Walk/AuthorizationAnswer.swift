import Core
import HTTP

/// Where the walk found the authorization response: a redirect to the
/// redirect_uri that was refused, or a form_post page aimed at it.
package enum AuthorizationAnswer: Equatable, Sendable {
    case redirect(URIReference)
    case formPost(fields: [NameValue], page: String)
}
