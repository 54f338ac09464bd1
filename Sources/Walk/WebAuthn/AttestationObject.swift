/// The attestation object of a registration (WebAuthn Level 3 §6.5.4) in
/// the `none` format (§8.7): `{"fmt": "none", "attStmt": {}, "authData":
/// <bytes>}`. No statement is made about the authenticator, so a relying
/// party that insists on attestation refuses it — what README "Passkeys"
/// says authcode cannot do.
enum AttestationObject {
    static func none(authenticatorData: [UInt8]) -> [UInt8] {
        CBOR.map([
            .text("fmt"): .text("none"),
            .text("attStmt"): .map([:]),
            .text("authData"): .bytes(authenticatorData),
        ]).encoded
    }
}
