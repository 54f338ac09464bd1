import OAuth

/// What one flow produced, before any output format is applied: the CLI's
/// `ResultPrinter` turns it into stdout text, a batch into a JSON line.
package enum FlowResult: Sendable {
    /// `--print code`: the answer, not redeemed, with what redeeming needs.
    case code(UnredeemedCode)
    /// The token endpoint's answer (a code redeemed, or a refresh), or one
    /// from the cache.
    case token(MintedToken)
    /// `--forget`: the cache entry is gone; nothing to print.
    case forgotten
}

/// Everything a later step needs to redeem a code itself (the
/// `--print code` output: code, state, iss, code_verifier, redirect_uri).
package struct UnredeemedCode: Equatable, Sendable {
    package var code: String
    package var state: String?
    package var iss: String?
    package var verifier: String?
    package var redirectURI: String
}
