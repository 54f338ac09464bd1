// libFuzzer harness: the id_token a token endpoint returns (ARCHITECTURE.md "The flow"
// step 5; OIDC Core §3.1.3.7), its claim reader and the JSON decoder under it;
// no claim and no expires_in may trap. The input is
// used three ways: as the compact JWT itself, as the JWT's payload (so the
// fuzzer reaches the claim checks without having to learn base64url), and
// as a JSON document (a token response body).
//
// Compiled together with the Swift layers of Sources/ into one executable whose module
// is AuthCodeFuzz (see Fixtures/fuzz/run.sh), so no import is needed.

private let idTokenHeader = Base64URL.encode(Array(#"{"alg":"RS256","kid":"k1","typ":"JWT"}"#.utf8))

private func idTokenCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant broken: \(message())") }
}

/// Runs the claim checks with the parameter sets a run can have: issuer
/// known or only its origin, nonce sent or not, max_age or not, clock early
/// or late, no skew or a large one.
private func idTokenVerify(_ token: IDTokenClaims) {
    let cases: [IDTokenRules] = [
        IDTokenRules(issuer: .exact("https://idp.example.com"), clientID: "cli", nonce: "n-0S6_WzA2Mj", now: 1.7e9),
        IDTokenRules(issuer: .originOf("https://idp.example.com/token"), clientID: "cli", trustedAudiences: ["api"], nonce: nil, maxAge: 600,
                     skew: 0, now: 0),
        IDTokenRules(issuer: .exact("http://127.0.0.1:8000/o"), clientID: "cli", nonce: "abc", maxAge: 0, skew: 3600, now: 4e9),
    ]
    for rules in cases {
        do {
            let ran = try token.verify(rules)
            idTokenCheck(ran.starts(with: ["iss", "aud"]), "checks ran out of order: \(ran)")
            // Accepted: the claims the checks promise are really there.
            idTokenCheck(token.claims["iss"]?.stringValue.map(rules.issuer.accepts) == true, "accepted an id_token with the wrong iss")
            if let nonce = rules.nonce {
                idTokenCheck(token.claims["nonce"]?.stringValue == nonce, "accepted an id_token with the wrong nonce")
            }
            idTokenCheck(token.subject?.isEmpty == false, "accepted an id_token without sub")
            // exp and iat are finite JSON numbers (RFC 7519 §2), never a string or infinity.
            if case .number(let exp)? = token.claims["exp"], case .number(let iat)? = token.claims["iat"] {
                idTokenCheck(exp.isFinite && exp + rules.skew > rules.now, "accepted an id_token with exp \(exp)")
                idTokenCheck(iat.isFinite && iat <= rules.now + rules.skew, "accepted an id_token with iat \(iat)")
            } else {
                idTokenCheck(false, "accepted an id_token whose exp or iat is not a number")
            }
            if rules.maxAge != nil { idTokenCheck(ran.last == "auth_time", "max_age without an auth_time check") }
        } catch {
            let report = ErrorReport(.oauth(.claims(error)))
            idTokenCheck(report.exitCode == .securityCheck, "verify threw exit \(report.exitCode)")
            _ = report.line
        }
    }
    // A refresh compares with a stored token; itself always keeps its identity.
    do {
        _ = try token.keepsIdentity(of: token)
    } catch {
        idTokenCheck(false, "an id_token does not keep its own identity: \(error)")
    }
    _ = try? JARMResponse.response(payload: Array(JSONText.serialize(.object(token.claims.members)).utf8), issuer: .exact("https://idp.example.com"),
                                   clientID: "cli", now: 1.7e9, skew: 60, at: "fuzz")
}

/// The JWT as a token endpoint returns it: parsed (exit 8 when it is not
/// one), its payload read (exit 8 when not an object), its claims checked.
private func idTokenRead(_ jwt: String) {
    do {
        let jws = try IDTokenClaims.parse(jwt)
        idTokenVerify(try IDTokenClaims(payload: jws.payload))
    } catch {
        let exit = ErrorReport(.oauth(error)).exitCode
        idTokenCheck(exit == .malformedResponse, "reading an id_token threw exit \(exit)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    let text = String(decoding: bytes, as: UTF8.self)

    // 1. The input is the JWT.
    idTokenRead(text)

    // 2. The input is the payload of a JWT.
    idTokenRead(idTokenHeader + "." + Base64URL.encode(bytes) + ".c2lnbmF0dXJl")

    // 2b. The input is a userinfo answer, JSON or a JWT (never quoted in an error).
    for type in ["application/json", "application/jwt", "text/html"] {
        let response = HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", type)], body: bytes)
        do {
            if case .json(let body) = try UserInfoResponse.classify(response, at: "fuzz") {
                _ = try? UserInfoResponse.checkSubject(body, idTokenSubject: "alice", at: "fuzz")
            }
        } catch {
            idTokenCheck(!(text.count > 12 && ErrorReport(.oauth(error)).line.contains(text)), "a userinfo body was quoted")
        }
    }
    _ = JSONLine.of(bytes)

    // 3. The input is a JSON body: the id_token member is a string, null/absent, or exit 8.
    if let value = JSONValue.parse(bytes) {
        _ = value["access_token"]?.stringValue
        _ = value["expires_in"]?.numberValue
        do {
            let jwt = try IDTokenClaims.jwt(in: value)
            switch value["id_token"] {
            case .string(let text)?: idTokenCheck(jwt == text, "the id_token string was not read as it is")
            case nil, .null?: idTokenCheck(jwt == nil, "an absent or null id_token was read as one")
            default: idTokenCheck(false, "an id_token of another type was accepted")
            }
            if let jwt { idTokenRead(jwt) }
        } catch {
            let exit = ErrorReport(.oauth(error)).exitCode
            idTokenCheck(exit == .malformedResponse, "IDTokenClaims.jwt(in:) threw exit \(exit)")
        }
        _ = TokenLifetime.expiresIn(value["expires_in"])
        if case .string(let jwt)? = value["access_token"] { _ = TokenLifetime.jwtExpiry(jwt) }
    }

    // 4. The input is a token endpoint's or discovery endpoint's body.
    for status in [200, 400] {
        do {
            let response = try TokenResponse(HTTPResponse(status: status, body: bytes), at: "fuzz")
            idTokenCheck(response.accessToken?.isEmpty == false, "a token response without access_token accepted")
            _ = response.oneLine
            if let idToken = response.idToken { idTokenRead(idToken) }
        } catch {
            let exit = ErrorReport(.oauth(error)).exitCode
            idTokenCheck([.tokenEndpoint, .malformedResponse].contains(exit), "TokenResponse threw exit \(exit)")
        }
    }
    _ = try? ServerMetadata(json: bytes, expectedIssuer: "https://idp.example.com", at: "fuzz")

    // base64url round trip, as PKCE and JWTs use it.
    idTokenCheck(Base64URL.decode(Substring(Base64URL.encode(bytes))) == bytes, "base64url round trip")
    idTokenCheck(Base64URL.decode(Substring(Base64URL.encodeStandard(bytes))) == bytes, "base64 round trip")
    if let decoded = Base64URL.decode(Substring(text)) {
        _ = Base64URL.encode(decoded)
    }
    return 0
}
