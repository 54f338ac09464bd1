import Core

/// A credential of the user's that a request carries in its body or URL.
/// Set where the request is built (a filled-in form, a 307/308 replay), and
/// checked by `OriginPolicy` against the trusted origins just before sending.
package enum CarriedCredential: Equatable, Sendable {
    /// `--form` or TOTP values filled into a page's form.
    case filledForm
    /// A body repeated by a 307 or 308 (RFC 9110 §15.4.8-9).
    case replayedBody(status: Int)
}
