/// Bytes that are a secret (a private key parameter, an HMAC key): kept as
/// they are, but never written out by `description`, so a failing test's
/// `#expect` or a debug print cannot put them in a log.
package struct SecretBytes: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    package let bytes: [UInt8]

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    package var description: String { "<secret \(bytes.count) bytes>" }
    package var debugDescription: String { description }
}
