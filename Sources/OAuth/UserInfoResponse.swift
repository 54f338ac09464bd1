import Core
import HTTP
import JOSE

/// The userinfo endpoint's answer (OIDC Core §5.3.2, §5.3.3). Its body
/// holds personal data and the server may echo the access token in it, so
/// it is never quoted in an error line, whether or not it parses: a line
/// gives the status, the OAuth error of a well-formed error answer
/// (RFC 6750 §3: the WWW-Authenticate challenge, else a JSON error
/// object), or the content type and length.
package enum UserInfoResponse {
    /// What a successful answer holds.
    package enum Body: Equatable, Sendable {
        /// `application/json`: the claims as received.
        case json([UInt8])
        /// `application/jwt`: a JWS to verify (a nested encrypted JWT is not supported).
        case jwt(String)
    }

    package static func classify(_ response: HTTPResponse, at location: String) throws(OAuthError) -> Body {
        guard response.isSuccess else {
            throw .userinfoRefused(status: response.status, bearerError(response), BodyQuote.of(response, from: .userinfo), at: location)
        }
        switch response.mediaType {
        case "application/jwt"?:
            let text = String(decoding: response.body, as: UTF8.self).trimmed
            return .jwt(text)
        case "application/json"?, nil:
            guard case .object? = JSONValue.parse(response.body) else {
                throw .userinfoNotObject(BodyQuote.of(response, from: .userinfo), at: location)
            }
            return .json(response.body)
        default:
            throw .userinfoNotJSONOrJWT(BodyQuote.of(response, from: .userinfo), at: location)
        }
    }

    /// The claims of a verified signed answer, checked as OIDC Core §5.3.2
    /// asks: `iss` and `aud` when present (the issuer, this client).
    package static func signedClaims(payload: [UInt8], issuer: ExpectedIssuer, clientID: String, at location: String) throws(OAuthError) -> [UInt8] {
        guard let claims = ClaimSet(payload: payload, what: .signedUserinfo) else {
            throw .signedUserinfoNotObject(at: location)
        }
        do throws(ClaimError) {
            if claims["iss"] != nil { try claims.checkIssuer(issuer) }
            if claims["aud"] != nil { try claims.checkAudience(clientID: clientID, trusted: nil) }
        } catch {
            throw .userinfoClaims(error, at: location)
        }
        return payload
    }

    /// §5.3.2: the answer's `sub` is the id_token's, or its values must not
    /// be used.
    package static func checkSubject(_ payload: [UInt8], idTokenSubject: String?, at location: String) throws(OAuthError) {
        guard let subject = idTokenSubject else {
            throw .userinfoUnbound(at: location)
        }
        guard case .object(let members)? = JSONValue.parse(payload), let sub = members["sub"] else {
            throw .userinfoNoSubject(at: location)
        }
        guard sub.stringValue == subject else {
            throw .userinfoSubjectMismatch(at: location)
        }
    }

    /// `error=invalid_token`, `error_description=The access token expired`,
    /// from the challenge (RFC 6750 §3) or a JSON error object; nil when
    /// there is none.
    package static func bearerError(_ response: HTTPResponse) -> BearerError? {
        var error: String?
        var description: String?
        if let challenge = response.headers.first(named: "WWW-Authenticate") {
            error = parameter("error", in: challenge)
            description = parameter("error_description", in: challenge)
        }
        if error == nil, case .object(let members)? = JSONValue.parse(response.body), let code = members["error"]?.stringValue {
            error = code
            description = members["error_description"]?.stringValue
        }
        guard let error, !error.isEmpty else { return nil }
        return BearerError(error: error, description: description)
    }

    /// A quoted or token auth-param of a challenge (RFC 9110 §11.2).
    static func parameter(_ name: String, in challenge: String) -> String? {
        let bytes = Array(challenge.utf8)
        let key = Array((name + "=").utf8)
        var index = 0
        while index + key.count <= bytes.count {
            let atBoundary = index == 0 || [UInt8(ascii: " "), UInt8(ascii: ","), UInt8(ascii: "\t")].contains(bytes[index - 1])
            if atBoundary, Array(bytes[index..<(index + key.count)]).map({ $0 | 0x20 }) == key.map({ $0 | 0x20 }) {
                var cursor = index + key.count
                var value: [UInt8] = []
                if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\"") {
                    cursor += 1
                    while cursor < bytes.count, bytes[cursor] != UInt8(ascii: "\"") {
                        if bytes[cursor] == UInt8(ascii: "\\"), cursor + 1 < bytes.count { cursor += 1 }
                        value.append(bytes[cursor])
                        cursor += 1
                    }
                } else {
                    while cursor < bytes.count, bytes[cursor] != UInt8(ascii: ","), bytes[cursor] != UInt8(ascii: " ") {
                        value.append(bytes[cursor])
                        cursor += 1
                    }
                }
                return String(decoding: value, as: UTF8.self)
            }
            index += 1
        }
        return nil
    }
}

/// A userinfo answer that passed its checks: its claims as JSON bytes (the
/// body as received, or a signed answer's verified payload).
package struct UserInfo: Sendable, Equatable {
    package var claims: [UInt8]

    package init(claims: [UInt8]) {
        self.claims = claims
    }
}
