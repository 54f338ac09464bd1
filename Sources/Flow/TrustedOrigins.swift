import Core
import HTTP
import OAuth
import Walk

/// The origins trusted with credentials: those of the URLs the user gave
/// (`--issuer`, `--authorize-url`, `--token-url`, each `--step`), of each
/// `--trust-origin`, and of the endpoints authcode uses that the issuer's
/// metadata names (OAuth/TrustedEndpoints.swift: not every `*_endpoint`
/// member). Every other origin the walk passes through gets no `--form`
/// value, no `-H` header, no replayed body (OriginPolicy.swift).
enum TrustedOrigins {
    static func given(by server: ServerSettings, walk: WalkSettings) -> [String] {
        [server.issuer, server.authorizeURL, server.tokenURL].compactMap { $0 } + walk.steps.map(\.url) + walk.trustOrigins
    }

    static func named(by endpoints: ServerEndpoints) -> [String] {
        [endpoints.authorize, endpoints.token, endpoints.par].compactMap { $0 } + (endpoints.metadata.map(TrustedEndpoints.urls) ?? [])
    }
}
