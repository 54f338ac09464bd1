import Core
import HTTP
import JOSE
import OAuth

/// Verifies a server's JWS (an id_token, a JARM response, a signed
/// userinfo answer) with the run's keys (JOSE/JWSVerifier.swift holds the
/// rules: refused headers, accepted algorithms, key choice, RSA ≥ 2048).
/// Every refusal says why (`FlowError.signature`), never with a value of the token.
struct SignatureCheck {
    let keys: KeyStore
    let client: HTTPClient
    /// The client secret: HS256/384/512 are keyed with it (OIDC Core §10.1).
    let secret: String?
    let now: Double

    func verify(_ jws: CompactJWS, accepting algorithms: Set<JWSAlgorithm>, what: SignedAnswer) throws(FlowError) -> VerifiedJWS {
        let secretBytes = secret.map { Array($0.utf8) }
        // First with no keys: the headers and the algorithm are decided
        // before any key set is fetched (a token that brings its own key,
        // or an algorithm not accepted, costs no request).
        do throws(JOSEError) {
            return try JWSVerifier(keys: JWKSet(keys: []), algorithms: algorithms, hmacSecret: secretBytes).verify(jws)
        } catch .unknownKeyID, .noUsableKey {
            // An asymmetric algorithm: the keys decide.
        } catch {
            throw .signature(what, error, accepted: algorithms)
        }
        guard keys.source != nil else {
            throw .noKeys(what, algorithm: jws.algorithmName)
        }
        let fetch = KeySetFetch(client: client)
        var set = try keys.keys(fetch, now: now)
        while true {
            do throws(JOSEError) {
                return try JWSVerifier(keys: set, algorithms: algorithms, hmacSecret: secretBytes).verify(jws)
            } catch .unknownKeyID(let kid) {
                // Key rotation: one more fetch per run, then the set as it is.
                guard let fresh = try keys.refetch(fetch, now: now), fresh != set else {
                    throw .signature(what, .unknownKeyID(kid), accepted: algorithms)
                }
                set = fresh
            } catch {
                throw .signature(what, error, accepted: algorithms)
            }
        }
    }
}
