import Core
import HTTP

/// The id_token checks of OIDC Core §3.1.3.7 that apply to a token received
/// directly from the token endpoint: the signature may be skipped there (the
/// TLS connection authenticated the server), the claims may not.
package struct IDTokenClaims: Equatable, Sendable {
    let claims: JSONValue

    /// The `id_token` member of a token response (OIDC Core §3.1.3.3): a
    /// string, or nil when it is absent or null; any other JSON is a
    /// malformed answer (exit 8), never silently "no id_token".
    package static func jwt(in response: JSONValue) throws(Failure) -> String? {
        switch response["id_token"] {
        case nil, .null?: return nil
        case .string(let jwt)?: return jwt
        default: throw Failure(.malformedResponse, "the id_token is neither a string nor null")
        }
    }

    /// Decodes the JWT payload (the middle base64url part) without verifying
    /// the signature.
    package init(jwt: String) throws(Failure) {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 || parts.count == 5 else {
            throw Failure(.malformedResponse, "the id_token is not a JWT (expected 3 dot-separated parts)")
        }
        guard parts.count == 3 else {
            throw Failure(.malformedResponse, "the id_token is encrypted (JWE); authcode cannot check its claims")
        }
        guard let payload = Base64URL.decode(parts[1]), let json = JSONValue.parse(payload), case .object = json else {
            throw Failure(.malformedResponse, "the id_token's payload is not base64url JSON")
        }
        claims = json
    }

    /// - Parameters:
    ///   - issuer: expected `iss`; nil when endpoints were given by hand
    ///     without `--expect-iss` (nothing to compare with).
    ///   - now: seconds since 1970.
    ///   - skew: seconds of clock difference tolerated on `exp`.
    package func verify(issuer: String?, clientID: String, nonce: String?, now: Double, skew: Double = 120) throws(Failure) {
        if let issuer, claims["iss"]?.stringValue != issuer {
            throw Failure(.securityCheck, "id_token iss is '\(ServerText.printable(claims["iss"]?.stringValue ?? "missing"))', expected '\(issuer)'")
        }
        switch claims["aud"] {
        case .string(let audience)?:
            guard audience == clientID else {
                throw Failure(.securityCheck, "id_token aud '\(ServerText.printable(audience))' is not this client '\(clientID)'")
            }
        case .array(let audiences)?:
            guard audiences.contains(.string(clientID)) else {
                throw Failure(.securityCheck, "id_token aud does not contain this client '\(clientID)'")
            }
            // OIDC Core §3.1.3.7 item 4-5: with several audiences, azp names us.
            if audiences.count > 1 && claims["azp"]?.stringValue != clientID {
                throw Failure(.securityCheck, "id_token has several audiences but azp is not this client '\(clientID)'")
            }
        default:
            throw Failure(.securityCheck, "id_token has no aud claim")
        }
        // RFC 7519 §2 NumericDate: a JSON number. A string, or what the
        // parser made of 1e999 (infinity), is no time at all.
        guard let exp = claims["exp"], exp != .null else {
            throw Failure(.securityCheck, "id_token has no exp claim")
        }
        guard case .number(let expiry) = exp, expiry.isFinite else {
            throw Failure(.securityCheck, "id_token exp is not a finite JSON number")
        }
        guard expiry + skew > now else {
            throw Failure(.securityCheck, "id_token expired \(Self.seconds(now - expiry)) ago")
        }
        if let nonce, claims["nonce"]?.stringValue != nonce {
            throw Failure(.securityCheck, "id_token nonce does not match the one sent in the authorization request")
        }
    }

    /// `121 s`; a span no Int holds (exp = -1e300) is said without one.
    static func seconds(_ span: Double) -> String {
        span < 1e15 ? "\(Int(span)) s" : "more than 30 million years"
    }
}
