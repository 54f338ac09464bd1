import Core
import HTTP
import OAuth

/// Whether the server bound the token to the DPoP key it was asked for
/// (RFC 9449 §5: `token_type` DPoP, compared without regard to case). A
/// server that does not do DPoP answers Bearer; that is its right, so the
/// token is taken, with one warning (README "Modern client profile": a token not bound as
/// asked is what a user must know, even without -v); but `--fapi2` asks
/// for sender-constrained tokens (FAPI 2.0 §5.3.2.1), so there a Bearer
/// token is a failed check rather than a token.
extension ClientProfile {
    func checkBinding(of token: TokenResponse, trace: Trace) throws(FlowError) {
        guard settings.dpop != nil else { return }
        let scheme = TokenScheme(tokenType: token.json["token_type"]?.stringValue)
        guard scheme != .dpop else {
            trace.info("the token is bound to the DPoP key (token_type DPoP)")
            return
        }
        if settings.fapi2 {
            throw .notSenderConstrained(tokenType: scheme.headerName)
        }
        warn(redactor.finished("authcode: warning: the token is not DPoP-bound (token_type \(ServerText.printable(scheme.headerName, limit: 40))): "
                               + "the server answered the DPoP request with a bearer token"))
    }
}
