#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Linear time shown without a wall-clock bound (the machine is busy and
/// shared): the same work on an input of size n and of 4n, each timed in
/// this thread's own CPU time (CLOCK_THREAD_CPUTIME_ID: other processes and
/// threads do not count) and taken as the best of a few tries. Linear work
/// grows about 4 times, quadratic work 16 times; a ratio under 8 says
/// linear with room for noise. Speed itself belongs in `make bench`.
package enum Growth {
    /// How much longer `work(size × factor)` takes than `work(size)`.
    package static func ratio(size: Int, factor: Int = 4, tries: Int = 3, _ work: (Int) -> Void) -> Double {
        let small = best(of: tries) { work(size) }
        let large = best(of: tries) { work(size * factor) }
        return large / max(small, 1e-6)
    }

    /// The least CPU time of `tries` runs of `body`, in seconds.
    package static func best(of tries: Int, _ body: () -> Void) -> Double {
        (0..<max(1, tries)).map { _ in cpuTime(body) }.min() ?? 0
    }

    /// This thread's CPU time spent in `body`, in seconds.
    package static func cpuTime(_ body: () -> Void) -> Double {
        let start = threadTime()
        body()
        return threadTime() - start
    }

    private static func threadTime() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// The ratio under which work counts as linear (see above).
    package static let linearLimit = 8.0
}
