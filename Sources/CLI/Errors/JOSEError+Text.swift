import Core
import JOSE

/// The words of a JOSE error (JOSE/JOSEError.swift): one phrase for an
/// error line, without any value from the input.
extension JOSEError {
    var message: String {
        switch self {
        case .notCompact: "not a compact JWS (three base64url parts separated by dots)"
        case .badEncoding(let part): "the JWS \(part.rawValue) is not base64url"
        case .headerNotObject: "the JWS header is not a JSON object"
        case .missingAlgorithm: "the JWS header has no alg"
        case .badHeaderMember(let name): "the JWS header member \(name) is not a string"
        case .unknownAlgorithm: "the JWS alg is not one authcode supports"
        case .refusedHeader(let name): "the JWS header carries \(name), which is refused"
        case .algorithmNotAccepted(let alg): alg == .unsecured ? "the JWS is unsigned (alg none)" : "the JWS alg \(alg.rawValue) is not accepted"
        case .noSecret: "the JWS is signed with a client secret (HMAC) and none is known"
        case .unknownKeyID: "no key of the key set has the JWS's kid"
        case .noUsableKey(let alg): "no key of the key set fits \(alg.rawValue)"
        case .keyTooSmall(let bits): "the RSA key has \(bits) bits, under the 2048 required"
        case .invalidKey: "the key that fits the JWS is not a valid key"
        case .badSignature: "the JWS signature does not verify"
        case .notJSON: "the key set is not JSON"
        case .notKeySet: "the JSON is not a key set ({\"keys\":[...]})"
        case .badKey(let reason): "the key is not usable: \(reason)"
        case .unsupportedKey: "the key type or curve is not one authcode supports"
        case .notPrivateKey: "the key holds no private part (d)"
        case .encryptedPEM: "the PEM private key is encrypted (give it unencrypted)"
        case .badPEM: "no private key could be read from the PEM text"
        case .ambiguousKey(let kids): "the key set holds several private keys; name one by its kid (the set's kids: \(Self.list(kids)))"
        case .keyIDNotInSet(let kid, let kids):
            "no private key of the key set has kid '\(ServerText.printable(kid, limit: 80))' (the set's kids: \(Self.list(kids)))"
        case .algorithmDoesNotFitKey(let alg): "\(alg.rawValue) cannot be made with this key"
        case .claimsNotObject: "the claims to sign are not a JSON object"
        case .cryptoFailure: "libcrypto failed"
        }
    }

    /// Kids as an error line names them: bounded, escaped, `none` for none.
    static func list(_ kids: [String]) -> String {
        kids.isEmpty ? "none" : kids.map { ServerText.printable($0, limit: 80) }.joined(separator: ", ")
    }
}
