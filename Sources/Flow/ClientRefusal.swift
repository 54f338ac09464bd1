import Core
import OAuth

/// `invalid_client` from the token endpoint (RFC 6749 §5.2): the client's
/// own authentication failed, not the user's. After a code grant the login
/// itself worked, so say so; the hint follows how the client authenticated.
enum ClientRefusal {
    static func failure(_ error: Failure, method: ClientAuthMethod, grant: Grant) -> Failure {
        var failure = error
        if case .authorizationCode = grant { failure.message = "the login worked, but " + error.message }
        switch method {
        case .none:
            failure.hint = "The client was sent as public, with no secret; if it is confidential, pass --client-secret."
        case .clientSecretBasic:
            failure.hint = "Check --client-secret, or try --auth-method client_secret_post (the secret in the body, not the Authorization header)."
        case .clientSecretPost:
            failure.hint = "Check --client-secret, or try --auth-method client_secret_basic (the secret in the Authorization header)."
        case .clientSecretJWT:
            failure.hint = "Check --client-secret (it keys the HS256 assertion), or try --auth-method client_secret_basic."
        case .privateKeyJWT:
            failure.hint = "Check that the server has the public half of --client-key for this client, and its kid (--client-key-id); some servers want the assertion's aud to be the endpoint: --assertion-aud endpoint."
        case .tlsClientAuth, .selfSignedTLSClientAuth:
            failure.hint = "Check that the server has --cert registered for this client (its subject, or the certificate itself)."
        }
        return failure
    }
}
