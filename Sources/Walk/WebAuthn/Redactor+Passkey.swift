import Core
import JOSE

extension Redactor {
    /// A passkey's private key `d`, in every form it could be written: as
    /// the file has it (base64url), standard base64 (Glewlwyd's API speaks
    /// it), and hex. The redactor adds the echo forms of each (SecretForms).
    package func remember(passkey credential: PasskeyCredential?) {
        guard let credential, let d = try? credential.key.privateJWK().privateParameters.first?.bytes else { return }
        let standard = Base64URL.encodeStandard(d)
        let hex = d.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        for form in [Base64URL.encode(d), standard, String(standard.prefix { $0 != "=" }), hex, hex.uppercased()] {
            remember(form)
        }
    }
}
