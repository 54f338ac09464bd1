import Core

/// A clock that moves only when a test moves it, for code that takes
/// `now:` (seconds since 1970) or a monotonic clock.
package final class ManualClock: Sendable {
    private let seconds: Lock<Double>

    package init(_ start: Double = 1_700_000_000) {
        seconds = Lock(start)
    }

    package var time: Double { seconds.read { $0 } }

    package func advance(by delta: Double) {
        seconds.withLock { $0 += delta }
    }

    /// The clock as the product's `now:` parameters take it.
    package var now: @Sendable () -> Double {
        { [seconds] in seconds.read { $0 } }
    }
}
