#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wall-clock time and the process environment straight from libc, so the
/// product needs no Foundation at all (see JSONParser for why).
package enum SystemClock {
    /// Seconds since 1970, for cookie expiry and id_token `exp`.
    package static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Seconds on a clock that never jumps, for deadlines and rates.
    package static func monotonic() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// `30 s`, `0.5 s`: a duration as a person reads it.
    package static func describe(seconds: Double) -> String {
        seconds == seconds.rounded() && seconds < 1e9 ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}

