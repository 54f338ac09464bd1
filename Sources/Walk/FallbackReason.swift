import Core
import HTTP

/// Why a walk that began with a POST authorization request stopped early so
/// the request can be sent again as a GET, the method RFC 6749 §3.1 makes
/// every server take (Flow/MethodFallback.swift does it).
package enum FallbackReason: Equatable, Sendable {
    /// The first answer refused the POST: 403 (a CSRF check on a POST
    /// without a session), 405 Method Not Allowed, 415 Unsupported Media Type.
    case refused(status: Int, place: String)
    /// The next hop would fetch or send a URL carrying a `--form` value
    /// (CredentialLeak.swift); it was not followed.
    case formValueInURL(place: String)
    /// The walk found no way on (`WalkError.isDeadEnd`) before any
    /// credentials went into a form.
    case walkFailed(WalkError)
    /// A later hop went back to the authorization endpoint without the
    /// request's parameters: the server kept the URL, not the POST body
    /// (LostRequest.swift). The login's cookies stay for the GET.
    case requestLost(place: String)

    static let refusalStatuses: Set<Int> = [403, 405, 415]

    /// Whether the GET goes on with the cookies the POST's walk collected.
    package var keepsCookies: Bool {
        if case .requestLost = self { return true }
        return false
    }

    /// What the walk ends with where nothing falls back.
    package var failure: WalkError {
        switch self {
        case .refused(let status, let place): .postRefused(status: status, at: place)
        case .formValueInURL(let place): .formValueInURL(at: place)
        case .walkFailed(let error): error
        case .requestLost(let place): .requestLost(at: place)
        }
    }
}
