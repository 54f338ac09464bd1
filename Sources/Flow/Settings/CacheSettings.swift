/// `--cache` (ARCHITECTURE.md, "Token cache"): whether tokens are reused
/// between runs, where they are kept, and for how long one is good enough.
package struct CacheSettings: Equatable, Sendable {
    package var enabled = false
    /// `--cache-dir`, else the default the rules found (nil: none could be
    /// found, said when the cache is opened).
    package var directory: String?
    package var minTTL = 60
    /// `--forget`: delete the entry and mint nothing (implies `enabled`).
    package var forget = false

    package init() {}
}
