// libFuzzer harness: the JOSE layer (Sources/JOSE over Sources/CCrypto) on
// what a server or a key file chooses: compact JWS, JWK and JWK Set JSON,
// PEM private keys, and signatures checked against a fixed key set. The input
// is used several ways: as the token itself, as a token's header JSON, as a
// signature under each fixed key, as a JWK and a key set (then used to check
// the RFC tokens), and as PEM.
//
// Compiled together with the Swift layers of Sources/ into one executable whose module
// is AuthCodeFuzz (see Fixtures/fuzz/run.sh), so no import is needed.

private func joseCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant broken: \(message())") }
}

/// The RFC 7515 A.2/A.3/A.4 and RFC 8037 keys (public halves), each with a
/// kid, and the RFC token each signed. Made anew for every input, not kept
/// in a global: Swift stores an enum's case in the spare bits of its
/// payload's pointers, so LeakSanitizer cannot see that a global JWK's
/// arrays are reachable and reports them as leaks at exit.
private func joseKeyVectors() -> [(jwk: JWK, token: String)] {
    let vectors: [(String, String, String)] = [
        ("r", #"{"kty":"RSA","n":"ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ","e":"AQAB"}"#,
         "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdbF9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw"),
        ("e", #"{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}"#,
         "eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"),
        ("p", #"{"kty":"EC","crv":"P-521","x":"AekpBQ8ST8a8VcfVOTNl353vSrDCLLJXmPk06wTjxrrjcBpXp5EOnYG_NjFZ6OvLFV1jSfS9tsz4qUxcWceqwQGk","y":"ADSmRA43Z1DSNx_RvcLI87cdL07l6jQyyBXMoxVg_l2Th-x3S1WDhjDly79ajL4Kkd0AZMaZmh9ubmf63e3kyMj2"}"#,
         "eyJhbGciOiJFUzUxMiJ9.UGF5bG9hZA.AdwMgeerwtHoh-l192l60hp9wAHZFVJbLfD_UxMi70cwnZOYaRI1bKPWROc-mZZqwqT2SI-KGDKB34XO0aw_7XdtAG8GaSwFKdCAPZgoXD2YBJZCPEX3xKpRwcdOO8KpEHwJjyqOgzDO7iKvU8vcnwNrmxYbSW9ERBXukOXolLzeO_Jn"),
        ("o", #"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#,
         "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc.hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg"),
    ]
    return vectors.map { kid, json, token in
        var key = try! JWK(json: Array(json.utf8))
        key.kid = kid
        return (key, token)
    }
}

private let joseSecret = Array("fuzz client secret, 32 bytes or more".utf8)

/// Step 3's libcrypto keys, made once per process: making an EVP_PKEY from
/// a JWK's numbers (EVP_PKEY_fromdata) costs more than the check it serves,
/// and step 3 made nine per input.
/// Only class references and byte arrays are kept (plain pointers, which
/// LeakSanitizer follows), never a JWK (see joseKeyVectors).
private final class JOSEForgeryTargets: @unchecked Sendable {
    let keys: [(key: CryptoKey, algorithm: JWSAlgorithm, signingInput: [UInt8], signature: [UInt8])]
    let rsa: CryptoKey

    init() {
        var keys: [(key: CryptoKey, algorithm: JWSAlgorithm, signingInput: [UInt8], signature: [UInt8])] = []
        var rsa: CryptoKey?
        for (jwk, token) in joseKeyVectors() {
            let jws = try! CompactJWS(token)
            let key = try! CryptoKey.publicKey(jwk)
            keys.append((key, jws.algorithm!, jws.signingInput, jws.signature))
            if jwk.keyType == .rsa { rsa = key }
        }
        self.keys = keys
        self.rsa = rsa!
    }
}

private let joseForgeryTargets = JOSEForgeryTargets()

private let josePEMBoundary = Array("-----BEGIN ".utf8)

private func joseHoldsPEMBoundary(_ bytes: [UInt8]) -> Bool {
    guard bytes.count >= josePEMBoundary.count else { return false }
    for start in 0...(bytes.count - josePEMBoundary.count) where bytes[start] == josePEMBoundary[0] {
        if bytes[start..<start + josePEMBoundary.count].elementsEqual(josePEMBoundary) { return true }
    }
    return false
}

private func joseVerifiers(_ keys: [(jwk: JWK, token: String)]) -> [JWSVerifier] {
    [
        JWSVerifier(keys: JWKSet(keys: keys.map(\.jwk)), algorithms: JWSAlgorithm.asymmetric),
        JWSVerifier(keys: JWKSet(keys: keys.map(\.jwk)), algorithms: Set(JWSAlgorithm.allCases).subtracting([.unsecured]), hmacSecret: joseSecret),
        JWSVerifier(keys: JWKSet(keys: []), algorithms: [.unsecured]),
    ]
}

/// The promises of JWSVerifier.verify for one accepted token.
private func joseCheckAccepted(_ verified: VerifiedJWS, by verifier: JWSVerifier, _ jws: CompactJWS, _ joseKeys: [(jwk: JWK, token: String)]) {
    joseCheck(verifier.algorithms.contains(verified.algorithm), "accepted alg \(verified.algorithm) outside the set")
    joseCheck(verified.algorithm.rawValue == jws.algorithmName, "verified alg is not the header's")
    for name in JWSVerifier.refusedHeaders {
        joseCheck(jws.header[name] == nil, "accepted a token with \(name)")
    }
    joseCheck(verified.payload == jws.payload, "the verified payload is not the token's")
    switch verified.algorithm.keyKind {
    case .unsecured:
        joseCheck(verifier.algorithms == [.unsecured] && jws.signature.isEmpty, "accepted alg none")
    case .secret:
        joseCheck(verified.key == nil, "an HMAC token verified by a key")
    default:
        guard let key = verified.key else { return joseCheck(false, "an asymmetric token verified without a key") }
        joseCheck(JWSVerifier.mayVerify(key, verified.algorithm), "verified with a key that does not fit")
        if let kid = jws.keyID { joseCheck(key.kid == kid, "verified with a key of another kid") }
        joseCheck((key.rsaBits ?? 2048) >= 2048, "verified with a small RSA key")
        // Only the RFC tokens themselves carry valid signatures by these keys.
        joseCheck(joseKeys.contains { $0.token.utf8.elementsEqual(jws.signingInput + [UInt8(ascii: ".")] + Array(Base64URL.encode(jws.signature).utf8)) },
                  "a signature nobody made verified")
    }
}

private func joseVerifyAll(_ jws: CompactJWS, _ joseKeys: [(jwk: JWK, token: String)], _ verifiers: [JWSVerifier]) {
    for verifier in verifiers {
        do {
            joseCheckAccepted(try verifier.verify(jws), by: verifier, jws, joseKeys)
        } catch {
            _ = error.message
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    let text = String(decoding: bytes, as: UTF8.self)
    let joseKeys = joseKeyVectors()
    let verifiers = joseVerifiers(joseKeys)

    // 1. The input is a compact JWS.
    if let jws = try? CompactJWS(text) {
        joseCheck(jws.signingInput.count < text.utf8.count, "signing input longer than the token")
        joseCheck(Base64URL.decode(Substring(String(decoding: jws.signingInput, as: UTF8.self).split(separator: ".", omittingEmptySubsequences: false).last!)) == jws.payload,
                  "payload is not the second part")
        joseVerifyAll(jws, joseKeys, verifiers)
    }

    // 2. The input is a token's header JSON (so the fuzzer need not learn base64url).
    let payload = Base64URL.encode(Array(#"{"sub":"fuzz"}"#.utf8))
    for signature in ["", "c2lnbmF0dXJl"] {
        if let jws = try? CompactJWS(Base64URL.encode(bytes) + "." + payload + "." + signature) {
            joseCheck(jws.header["alg"]?.stringValue == jws.algorithmName, "alg is not the header's")
            joseVerifyAll(jws, joseKeys, verifiers)
        }
    }

    // 3. The input is a signature under each key's algorithm (raw R‖S, PKCS#1, PSS, Ed25519, HMAC):
    //    nothing the fuzzer makes is a valid signature. Checked with the
    //    process's keys (JOSEForgeryTargets); one key per input, in turn,
    //    also through the whole verifier, which must say badSignature.
    for (index, target) in joseForgeryTargets.keys.enumerated() where bytes != target.signature {
        joseCheck(!target.key.verify(bytes, of: target.signingInput, algorithm: target.algorithm),
                  "a fuzzed signature verified under \(target.algorithm.rawValue)")
        guard index == count % joseForgeryTargets.keys.count else { continue }
        let (key, token) = joseKeys[index]
        let forged = token.split(separator: ".").prefix(2).joined(separator: ".") + "." + Base64URL.encode(bytes)
        guard forged != token, let jws = try? CompactJWS(forged) else { continue }
        do {
            _ = try verifiers[1].verify(jws)
            joseCheck(false, "a fuzzed signature verified under \(key.kid ?? "?")")
        } catch {
            joseCheck(error == .badSignature, "a wrong signature failed with \(error), not badSignature")
        }
    }
    let headerAndPayload = Array(payload.utf8)
    for alg in [JWSAlgorithm.hs256, .hs384, .hs512, .ps256, .rs512] {
        let signingInput = Array(Base64URL.encode(Array(#"{"alg":"\#(alg.rawValue)","kid":"r"}"#.utf8)).utf8) + [UInt8(ascii: ".")] + headerAndPayload
        let verified = alg.keyKind == .secret
            ? CryptoKey.macMatches(bytes, of: signingInput, secret: joseSecret, algorithm: alg)
            : joseForgeryTargets.rsa.verify(bytes, of: signingInput, algorithm: alg)
        joseCheck(!verified, "a fuzzed \(alg.rawValue) signature verified")
    }

    // 4. The input is a JWK: its thumbprint and JSON round trip; a private
    //    key signs, and for EC and Ed25519 (whose d libcrypto checks against
    //    x and y) its own public half verifies what it signed. An RSA key's
    //    d is not checked against n and e, so a made-up one signs garbage.
    //    RSA keys stop at 2048 bits here to keep each run fast.
    if let key = try? JWK(json: bytes) {
        _ = key.thumbprint
        _ = key.description
        let reread = try? JWK(json: Array(key.json(includingPrivate: true).utf8))
        joseCheck(reread == key, "a JWK does not read back as written")
        if key.isPrivate, key.keyType != .oct, (key.rsaBits ?? 0) <= 2048, let signing = try? SigningKey(jwk: key) {
            joseCheck(signing.publicJWK.parameters == key.parameters, "a private key's public half is not the JWK's")
            if let token = try? JWSSigner(key: signing).sign(payload: bytes), key.keyType != .rsa {
                let verifier = JWSVerifier(keys: JWKSet(keys: [key.publicKey]), algorithms: [signing.defaultAlgorithm])
                joseCheck((try? verifier.verify(token)) != nil, "a token we signed does not verify with the key's public half")
            }
        } else if !key.isPrivate {
            _ = try? CryptoKey.publicKey(key)
        }
    }

    // 5. The input is a key set: the RFC tokens are checked against it.
    if let set = try? JWKSet(json: bytes) {
        joseCheck(set.keys.count + set.skipped <= count, "more keys than bytes")
        let verifier = JWSVerifier(keys: set, algorithms: JWSAlgorithm.asymmetric)
        for (_, token) in joseKeys {
            if let jws = try? CompactJWS(token), let verified = try? verifier.verify(jws) {
                joseCheckAccepted(verified, by: verifier, jws, joseKeys)
            }
        }
        _ = try? JWKSet(json: Array(set.json.utf8))
    }

    // 6. The input is a key file (PEM; JSON goes through step 4's paths too).
    //    libcrypto's PEM reader makes a decoder context for every try, which
    //    cost more than all the other steps together; input that is no JSON
    //    and has no PEM boundary (RFC 7468 §2) it can only refuse, so such
    //    input goes there one time in 32 (by its bytes' sum, so each input
    //    does the same on every run) and must then be refused as badPEM.
    let json = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "{")
    let boundary = joseHoldsPEMBoundary(bytes)
    if json || boundary || bytes.reduce(0, &+) % 32 == 0 {
        do {
            let key = try SigningKey.load(bytes)
            joseCheck(json || boundary, "a key was read from a file that is neither JSON nor PEM")
            _ = key.thumbprint
            joseCheck(key.fits(key.defaultAlgorithm), "a key's default algorithm does not fit it")
        } catch {
            joseCheck(json || boundary || error == .badPEM, "a file that is neither JSON nor PEM failed with \(error), not badPEM")
        }
    }

    // Strict base64url accepts a subset of what Core's decoder does, with the same bytes.
    if let strict = StrictBase64URL.decode(Substring(text)) {
        joseCheck(Base64URL.decode(Substring(text)) == strict, "strict and lenient base64url disagree")
        joseCheck(Base64URL.encode(strict) == text, "strict base64url is not canonical")
    }
    return 0
}
