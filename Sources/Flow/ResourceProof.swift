import Core
import OAuth

/// `--dpop-for 'METHOD URL'`: a DPoP proof for one request the user will
/// send with the token (RFC 9449 §7.1: `htm`, `htu`, `ath`, the nonce that
/// origin gave last), signed once the token is in hand — from the network
/// or the cache — so `--print header` can print it under the
/// Authorization line for `curl -H @-`.
extension TokenFlow {
    func withResourceProof(_ result: FlowResult) throws(FlowError) -> FlowResult {
        guard let target = settings.profile.dpopFor, case .token(var token) = result, let accessToken = token.response.accessToken else { return result }
        guard TokenScheme(tokenType: token.response.json["token_type"]?.stringValue) == .dpop else {
            // A token just from the token endpoint was warned about there
            // (TokenBinding.swift): one warning per token, not two.
            if token.source == .cache {
                warn("authcode: warning: the token is not DPoP-bound (its token_type is not DPoP), so \(wording.names.dpopFor) adds no DPoP line")
            }
            return result
        }
        // `--dpop-nonce`: the resource server's nonce, from a 401 the user met (RFC 9449 §9).
        if let nonce = settings.profile.dpopNonce { profile.nonces.give(nonce, for: target.url) }
        token.resourceProof = try profile.proof(method: target.method, url: target.url, accessToken: accessToken)
        return .token(token)
    }
}
