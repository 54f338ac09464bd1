/// `--shard K/N`: this machine takes records K, K+N, K+2N… (1-based).
package struct Shard: Equatable, Sendable {
    package var index: Int
    package var count: Int

    package init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Whether record `number` (1 = the first) is this shard's.
    package func takes(_ number: Int) -> Bool {
        (number - 1) % count == index - 1
    }
}
