import Core
import JOSE

/// A private key read from a file the user named (`--client-key`,
/// `--dpop-key`), once, when the options are validated. Two are equal
/// when they came from the same path and hold the same public key; the
/// private part is never compared, printed or described.
package struct LoadedKey: Equatable, Sendable {
    package let path: String
    package let key: SigningKey

    package init(path: String, key: SigningKey) {
        self.path = path
        self.key = key
    }

    package static func == (lhs: LoadedKey, rhs: LoadedKey) -> Bool {
        lhs.path == rhs.path && lhs.key.thumbprint == rhs.key.thumbprint
    }
}
