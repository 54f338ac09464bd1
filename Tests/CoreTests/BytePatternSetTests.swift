@testable import Core
import Testing

/// The automaton against the obvious search: at every end position, the
/// longest pattern ending there.
struct BytePatternSetTests {
    static func naive(_ patterns: [[UInt8]], _ text: [UInt8]) -> [(Int, Int)] {
        (1...max(1, text.count)).compactMap { end in
            guard end <= text.count else { return nil }
            let longest = patterns.filter { !$0.isEmpty && $0.count <= end && Array(text[(end - $0.count)..<end]) == $0 }.map(\.count).max()
            return longest.map { (end, $0) }
        }
    }

    @Test func agreesWithANaiveSearchOnOverlappingPatterns() {
        var state: UInt64 = 0x2545F4914F6CDD1D
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % bound
        }
        let alphabet = Array("ab\u{1}é".utf8)  // few symbols: many shared prefixes and suffixes, multi-child nodes
        for round in 0..<200 {
            var set = BytePatternSet()
            var patterns: [[UInt8]] = []
            for batch in 0..<2 {  // patterns added after a prepare() must count too
                for _ in 0..<(1 + next(6)) {
                    let pattern = (0..<(1 + next(6))).map { _ in alphabet[next(alphabet.count)] }
                    patterns.append(pattern)
                    set.insert(pattern)
                }
                set.prepare()
                let text = (0..<next(40)).map { _ in alphabet[next(alphabet.count)] }
                var found: [(Int, Int)] = []
                text.withUnsafeBufferPointer { buffer in set.forEachLongestMatch(in: buffer) { found.append(($0, $1)) } }
                let expected = Self.naive(patterns, text)
                #expect(found.map { [$0.0, $0.1] } == expected.map { [$0.0, $0.1] }, "round \(round) batch \(batch)")
            }
        }
    }

    @Test func emptySetAndEmptyPattern() {
        var set = BytePatternSet()
        #expect(set.isEmpty)
        set.insert([])
        #expect(set.isEmpty)
        set.insert(Array("x".utf8))
        #expect(!set.isEmpty)
    }
}
