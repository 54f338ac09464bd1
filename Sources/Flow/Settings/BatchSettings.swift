/// `--users` (ARCHITECTURE.md, "Batch"): where the records come from, how
/// many flows run at once, and which records are this machine's.
package struct BatchSettings: Equatable, Sendable {
    /// `--users FILE`, `-` for standard input; nil: no batch.
    package var input: String?
    package var parallel = 8
    package var shard: Shard?

    package init() {}
}
