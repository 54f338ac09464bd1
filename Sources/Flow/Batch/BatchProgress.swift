import Core

/// The one progress line a batch redraws on a terminal's stderr:
/// `120/1000 · 2 failed · 85/s · ETA 11s`, or `120 done · …` when the total
/// is unknown (standard input). At most ten redraws a second.
struct BatchProgress {
    let total: Int?
    /// Seconds on a clock that never jumps (SystemClock.monotonic; a test's own).
    let clock: () -> Double
    let started: Double
    private var lastDrawn: Double?

    init(total: Int?, clock: @escaping () -> Double = SystemClock.monotonic) {
        self.total = total
        self.clock = clock
        started = clock()
    }

    func line(done: Int, failed: Int, now: Double) -> String {
        let elapsed = max(now - started, 0.001)
        let rate = Double(done) / elapsed
        var parts = [total.map { "\(done)/\($0)" } ?? "\(done) done"]
        if failed > 0 { parts.append("\(failed) failed") }
        parts.append(rate >= 10 ? "\(Int(rate))/s" : "\(Double(Int(rate * 10)) / 10)/s")
        if let total, rate > 0, done < total {
            let left = Double(total - done) / rate
            parts.append("ETA \(left < 1e7 ? Int(left.rounded(.up)) : 9_999_999)s")
        }
        return parts.joined(separator: " · ")
    }

    /// The redraw text, or nil when the last one is too recent.
    mutating func redraw(done: Int, failed: Int, force: Bool = false) -> String? {
        let now = clock()
        if !force, let lastDrawn, now - lastDrawn < 0.1 { return nil }
        lastDrawn = now
        return "\r\u{1B}[K" + line(done: done, failed: failed, now: now)
    }
}
