import Foundation

/// Private key files for the option tests, written once per test process
/// with mode 0600 (a group-readable key gets a warning). Throwaway keys
/// made for these tests with PyPI cryptography; they protect nothing.
enum TestKeyFiles {
    static let p256JWK = #"{"kty":"EC","crv":"P-256","x":"FbjbEjxryk5zgKBE1SGGDg1AuJBJnG8bIc_WaGXzCnM","y":"FDWzF6yNojmhp5tMjBD5PmTwGhjsjBGz2cBYs5US-VA","kid":"p256","d":"L8_4ktrQSlTyYzE_Fo0XMS0E-x7pqpgFedKMwFNSouw"}"#
    static let ed25519JWK = #"{"kty":"OKP","crv":"Ed25519","x":"zaB3dsfbv4WysBClA4d9yizcKFLMXuAdPjHeqkv5rlc","kid":"ed25519","d":"mUCN-rSsQ5KuHu0UXCs2QWLvDhRyxUa-ut00JTc5qM8"}"#
    static let p384JWK = #"{"kty":"EC","crv":"P-384","x":"O_ubbITUKS8-vg-GZQakDy5LU-tTF5CUZ6iCnaOLk27aUSYQrmwtdpGPKakjEHiF","y":"ZYv5KanbfPI6kCT_PLwTZaGb_4mMuedJnuF_ZpI4e_acHgqGCgXJaThjvwBcdCgN","kid":"p384","d":"LCmXqqe544QDr9jRFlExbT28AdvTrI1Md5oI9yCWuPH6BRWOlXO9HHg_uaLuIG0V"}"#

    static let p256 = write(p256JWK, mode: 0o600)
    static let ed25519 = write(ed25519JWK, mode: 0o600)
    static let p384 = write(p384JWK, mode: 0o600)
    /// The P-256 key, readable by everyone.
    static let p256Open = write(p256JWK, mode: 0o644)

    static func write(_ text: String, mode: Int) -> String {
        let path = NSTemporaryDirectory() + "authcode-unit-key-\(UUID().uuidString).jwk"
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: mode])
        return path
    }
}
