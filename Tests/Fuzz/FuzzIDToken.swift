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
/// known or not, nonce sent or not, clock early or late.
private func idTokenVerify(_ token: IDTokenClaims) {
    let cases: [(issuer: String?, nonce: String?, now: Double)] = [
        ("https://idp.example.com", "n-0S6_WzA2Mj", 1.7e9),
        (nil, nil, 0),
        ("http://127.0.0.1:8000/o", "abc", 4e9),
    ]
    for item in cases {
        do {
            try token.verify(issuer: item.issuer, clientID: "cli", nonce: item.nonce, now: item.now)
            // Accepted: the claims the checks promise are really there.
            if let issuer = item.issuer {
                idTokenCheck(token.claims["iss"]?.stringValue == issuer, "accepted an id_token with the wrong iss")
            }
            if let nonce = item.nonce {
                idTokenCheck(token.claims["nonce"]?.stringValue == nonce, "accepted an id_token with the wrong nonce")
            }
            // exp is a finite JSON number (RFC 7519 §2), never a string or infinity.
            if case .number(let exp)? = token.claims["exp"] {
                idTokenCheck(exp.isFinite && exp + 120 > item.now, "accepted an id_token with exp \(exp)")
            } else {
                idTokenCheck(false, "accepted an id_token whose exp is not a number")
            }
        } catch {
            idTokenCheck(error.exitCode == .securityCheck, "verify threw exit \(error.exitCode)")
            _ = error.line
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    let text = String(decoding: bytes, as: UTF8.self)

    // 1. The input is the JWT.
    do {
        idTokenVerify(try IDTokenClaims(jwt: text))
    } catch {
        idTokenCheck(error.exitCode == .malformedResponse, "IDTokenClaims(jwt:) threw exit \(error.exitCode)")
    }

    // 2. The input is the payload of a JWT.
    let wrapped = idTokenHeader + "." + Base64URL.encode(bytes) + ".c2lnbmF0dXJl"
    if let token = try? IDTokenClaims(jwt: wrapped) {
        idTokenVerify(token)
    }

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
            if let jwt, let token = try? IDTokenClaims(jwt: jwt) { idTokenVerify(token) }
        } catch {
            idTokenCheck(error.exitCode == .malformedResponse, "IDTokenClaims.jwt(in:) threw exit \(error.exitCode)")
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
            if let idToken = response.idToken, let token = try? IDTokenClaims(jwt: idToken) {
                idTokenVerify(token)
            }
        } catch {
            idTokenCheck([.tokenEndpoint, .malformedResponse].contains(error.exitCode), "TokenResponse threw exit \(error.exitCode)")
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
