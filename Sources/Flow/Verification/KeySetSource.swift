import Core
import JOSE

/// Where the keys that verify the server's signatures come from (OIDC Core
/// §10.1.1): `--jwks`, which wins, else the metadata's `jwks_uri`; none
/// when neither is known (endpoints by hand, no `--issuer`).
package enum KeySetSource: Equatable, Sendable {
    /// `--jwks FILE` (or the set given inline): these keys, never fetched.
    case given(JWKSet, from: String)
    /// `--jwks URL` or the metadata's `jwks_uri`: fetched when first needed.
    case url(String)
}
