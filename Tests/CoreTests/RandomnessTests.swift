import Testing
@testable import Core

struct RandomnessTests {
    /// 128 bits as state and nonce are made (OAuth/AuthorizationRequest.swift):
    /// fifty draws, fifty different values of the right length.
    @Test func randomnessIsFresh() {
        #expect(Randomness.bytes(32).count == 32)
        #expect(Randomness.bytes(0).isEmpty)
        let tokens = Set((0..<50).map { _ in Base64URL.encode(Randomness.bytes(16)) })
        #expect(tokens.count == 50)
        #expect(tokens.allSatisfy { $0.count == 22 })
    }
}
