import Core
import OAuth

/// The endpoints the modern client profile changes: the PAR endpoint, and
/// with a client certificate the metadata's `mtls_endpoint_aliases` (RFC
/// 8705 §5) in place of the discovered endpoints (an endpoint given by
/// flag is kept as given).
extension ServerEndpoints {
    mutating func applyProfile(_ options: Options) throws(FlowError) {
        let profile = metadata?.profile ?? ProfileMetadata()
        if options.tokenURL == nil, let alias = mtlsAlias("token_endpoint", options) { token = alias }
        let pushes = options.par || profile.requirePushedAuthorizationRequests
        guard pushes, options.refreshToken == nil else { return }
        guard let endpoint = mtlsAlias("pushed_authorization_request_endpoint", options) ?? profile.pushedAuthorizationRequestEndpoint else {
            let why: PushDemand = options.par ? (options.fapi2 ? .fapi2 : .option) : .metadata
            throw .noPushEndpoint(why, issuer: options.issuer)
        }
        par = endpoint
    }

    /// The alias of a metadata endpoint for a client presenting `--cert`,
    /// nil without a certificate or an alias.
    package func mtlsAlias(_ name: String, _ options: Options) -> String? {
        guard options.cert != nil else { return nil }
        return metadata?.profile.mtlsEndpointAliases[name]
    }
}
