import Core
import OAuth

/// The endpoints the modern client profile changes: the PAR endpoint, and
/// with a client certificate the metadata's `mtls_endpoint_aliases` (RFC
/// 8705 §5) in place of the discovered endpoints (an endpoint given by
/// flag is kept as given).
extension ServerEndpoints {
    mutating func applyProfile(_ given: ServerSettings, request: RequestSettings, profile settings: ProfileSettings,
                               presentsCertificate: Bool) throws(FlowError) {
        let profile = metadata?.profile ?? ProfileMetadata()
        if given.tokenURL == nil, let alias = mtlsAlias("token_endpoint", presentsCertificate: presentsCertificate) { token = alias }
        let pushes = settings.par || profile.requirePushedAuthorizationRequests
        guard pushes, request.refreshToken == nil else { return }
        guard let endpoint = mtlsAlias("pushed_authorization_request_endpoint", presentsCertificate: presentsCertificate)
                ?? profile.pushedAuthorizationRequestEndpoint else {
            let why: PushDemand = settings.par ? (settings.fapi2 ? .fapi2 : .option) : .metadata
            throw .noPushEndpoint(why, issuer: given.issuer)
        }
        par = endpoint
    }

    /// The alias of a metadata endpoint for a client presenting `--cert`,
    /// nil without a certificate or an alias.
    package func mtlsAlias(_ name: String, presentsCertificate: Bool) -> String? {
        guard presentsCertificate else { return nil }
        return metadata?.profile.mtlsEndpointAliases[name]
    }
}
