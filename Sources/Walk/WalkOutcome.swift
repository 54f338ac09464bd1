import Core
import HTTP

/// How a walk that may fall back ends, as a value: the answer, or why the
/// authorization request should be sent again as a GET. A failure that
/// leaves no second try is thrown instead.
package enum WalkOutcome: Equatable, Sendable {
    case answer(AuthorizationAnswer)
    case fallBack(FallbackReason)
}
