import Foundation

/// A passkey file's contents for tests of `--passkey` (CLITests' parser
/// tests and RunTests' whole commands): RFC 9052 Appendix C.7's P-256 key,
/// a published example protecting nothing.
package enum PasskeyExample {
    package static let d = "r_kHyZ-a06rmxM3yESK84r1otSg-aQcVStkRhA-iCM8"
    package static let jwk = #"{"kty":"EC","crv":"P-256","x":"Ze2loSV3wrroKUN_4zhwGhCqo3Xhu1td4QjeQ5wIVR0","y":"HlLtdXARY_f55A3fnzQbPcm6hgr34Mp8p-nuzQCE0Zw","d":"\#(d)"}"#
    package static let good = #"{"rpId":"as.example","credentialId":"AAECAwQFBgcICQoLDA0ODw","userHandle":"dXNlci0x","signCount":7,"privateKey":\#(jwk)}"#
    /// A path in a writable directory where no file is: for `--passkey-register`.
    package static let unmade = NSTemporaryDirectory() + "authcode-unit-passkey-\(UUID().uuidString).json"

    /// A new temporary file holding `text`, with `mode`.
    package static func write(_ text: String, mode: Int = 0o600) -> String {
        let path = NSTemporaryDirectory() + "authcode-unit-passkey-\(UUID().uuidString).json"
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: mode])
        return path
    }
}
