/// Fresh random bytes from the system generator (getrandom on Linux):
/// PKCE verifiers, state, nonce, temporary file names. Code that needs
/// them takes a `random:` parameter defaulting to `bytes`, so tests can
/// pass their own.
package enum Randomness {
    package static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
