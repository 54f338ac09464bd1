import Core

/// A JWS in the compact serialization (RFC 7515 §7.1), read strictly: three
/// parts, each strict base64url (the payload and signature may be empty),
/// the header a JSON object with a string `alg` (§5.2 steps 1–5). Nothing
/// here is verified yet: JWSVerifier does that.
package struct CompactJWS: Sendable, Equatable {
    /// The decoded JOSE header's members (a duplicate name keeps the last
    /// value, as §5.2 step 4 allows).
    package let header: [String: JSONValue]
    /// `alg` as written, which may name an algorithm we do not implement.
    package let algorithmName: String
    package let payload: [UInt8]
    package let signature: [UInt8]
    /// ASCII(BASE64URL(header) || '.' || BASE64URL(payload)), what was signed (§5.1 step 6).
    package let signingInput: [UInt8]

    package init(_ text: String) throws(JOSEError) {
        let bytes = Array(text.utf8)
        var dots: [Int] = []
        for index in bytes.indices where bytes[index] == UInt8(ascii: ".") {
            dots.append(index)
            if dots.count > 2 { throw .notCompact }
        }
        guard dots.count == 2 else { throw .notCompact }
        let headerPart = bytes[..<dots[0]]
        let payloadPart = bytes[(dots[0] + 1)..<dots[1]]
        let signaturePart = bytes[(dots[1] + 1)...]

        guard !headerPart.isEmpty, let headerBytes = StrictBase64URL.decode(headerPart) else {
            throw .badEncoding(.header)
        }
        guard let payload = StrictBase64URL.decode(payloadPart) else { throw .badEncoding(.payload) }
        guard let signature = StrictBase64URL.decode(signaturePart) else { throw .badEncoding(.signature) }
        guard case .object(let header)? = JSONValue.parse(headerBytes) else { throw .headerNotObject }
        guard case .string(let alg)? = header["alg"] else { throw .missingAlgorithm }
        for name in ["kid", "typ", "cty"] {
            if let member = header[name], member.stringValue == nil { throw .badHeaderMember(name) }
        }
        self.header = header
        self.algorithmName = alg
        self.payload = payload
        self.signature = signature
        self.signingInput = Array(bytes[..<dots[1]])
    }

    /// The algorithm, when it is one this layer implements.
    package var algorithm: JWSAlgorithm? { JWSAlgorithm(rawValue: algorithmName) }

    /// The header's `kid` (RFC 7515 §4.1.4).
    package var keyID: String? { header["kid"]?.stringValue }

    /// The header's `typ` (RFC 7515 §4.1.9), e.g. `JWT`, `dpop+jwt`.
    package var type: String? { header["typ"]?.stringValue }
}
