/// HMAC (RFC 2104 §2): H(K ⊕ opad, H(K ⊕ ipad, text)), over the hash
/// functions of `HashAlgorithm`. TOTP codes are made of it (RFC 4226 §5.2).
package enum HMAC {
    package static func authenticationCode(for message: [UInt8], key: [UInt8], algorithm: HashAlgorithm) -> [UInt8] {
        // RFC 2104 §3: a key longer than B is hashed first, then every key
        // is zero-padded to B bytes.
        var block = key.count > algorithm.blockSize ? algorithm.hash(key) : key
        block += [UInt8](repeating: 0, count: algorithm.blockSize - block.count)
        let inner = algorithm.hash(block.map { $0 ^ 0x36 } + message)
        return algorithm.hash(block.map { $0 ^ 0x5C } + inner)
    }
}
