/// The hash functions HMAC runs over here: the three RFC 6238 §1.2 allows
/// for TOTP. Raw values are the `algorithm=` names of otpauth URIs.
package enum HashAlgorithm: String, CaseIterable, Sendable {
    case sha1 = "SHA1"
    case sha256 = "SHA256"
    case sha512 = "SHA512"

    /// The input block size B of RFC 2104 §2, in bytes.
    package var blockSize: Int {
        switch self {
        case .sha1, .sha256: 64
        case .sha512: 128
        }
    }

    package func hash(_ bytes: [UInt8]) -> [UInt8] {
        switch self {
        case .sha1: SHA1.hash(bytes)
        case .sha256: SHA256.hash(bytes)
        case .sha512: SHA512.hash(bytes)
        }
    }
}
