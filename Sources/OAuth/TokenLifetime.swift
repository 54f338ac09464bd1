import Core

/// When a token stops being valid, as seconds since 1970, counted from when
/// its answer was received. Server numbers are untrusted: nothing here can
/// trap, and anything that is not a sane, finite time is "unknown".
package enum TokenLifetime {
    /// Lifetimes past this many seconds (about 3,000 years) are not times.
    static let longest = 1e11

    /// RFC 6749 §5.1 `expires_in` (a finite non-negative number, or a string
    /// of digits as some servers send), else the `exp` of an access token
    /// that is a JWT (RFC 9068 §2.2).
    package static func accessTokenExpiry(_ token: TokenResponse, receivedAt: Double) -> Double? {
        if let seconds = expiresIn(token.json["expires_in"]) {
            return receivedAt + seconds
        }
        return token.accessToken.flatMap(jwtExpiry)
    }

    /// The id_token's `exp`, when it is a finite JSON number.
    package static func idTokenExpiry(_ token: TokenResponse) -> Double? {
        token.idToken.flatMap(jwtExpiry)
    }

    static func expiresIn(_ value: JSONValue?) -> Double? {
        switch value {
        case .number(let seconds)?:
            return seconds.isFinite && seconds >= 0 && seconds <= longest ? seconds : nil
        case .string(let text)?:
            guard !text.isEmpty, text.utf8.count <= 11, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return Double(text)
        default:
            return nil
        }
    }

    /// `exp` from a compact JWT's payload (RFC 7519 §4.1.4), no signature
    /// check: only to know when to stop using the token.
    package static func jwtExpiry(_ jwt: String) -> Double? {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(parts[1]), let claims = JSONValue.parse(payload),
              case .number(let exp)? = claims["exp"], exp.isFinite, exp >= 0, exp <= longest else { return nil }
        return exp
    }
}
