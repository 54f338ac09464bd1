import Foundation
import Testing

/// A run of the binary with its peak resident memory: a small Python parent
/// posix_spawns authcode, wait4s it and writes the child's own `ru_maxrss`
/// (getrusage of that child alone, not of the parent or of other tests'
/// processes) as the last line of stderr. Memory, not time: a bound on it
/// holds on a busy machine (ARCHITECTURE "Security rules"; no wall-clock assertion).
struct MeasuredRun {
    let result: RunResult
    /// ru_maxrss of the authcode process, in KiB (Linux).
    let peakKiB: Int
    var peakMiB: Double { Double(peakKiB) / 1024 }
}

func runMeasuringPeakRSS(_ arguments: [String], env: [String: String] = [:], stdin: String? = nil, timeout: Double = 60,
                         sourceLocation: SourceLocation = #_sourceLocation) async throws -> MeasuredRun {
    guard case .success(let binary) = Paths.binary else { throw HarnessError("authcode binary not found") }
    let script = """
        import os, sys
        pid = os.posix_spawn(sys.argv[1], sys.argv[1:], os.environ)
        _, status, usage = os.wait4(pid, 0)
        sys.stderr.write(f"MAXRSS_KIB {usage.ru_maxrss}\\n")
        sys.exit(os.waitstatus_to_exitcode(status) & 0xFF)
        """
    let raw = try await runProgram("python3", ["-I", "-S", "-c", script, binary] + arguments, env: env, stdin: stdin, timeout: timeout,
                                   sourceLocation: sourceLocation)
    var lines = raw.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    if lines.last == "" { lines.removeLast() }
    guard let last = lines.last, last.hasPrefix("MAXRSS_KIB "), let kib = Int(last.dropFirst("MAXRSS_KIB ".count)) else {
        throw HarnessError("the RSS wrapper printed no MAXRSS_KIB line\n\(raw)")
    }
    let stderr = lines.dropLast().map { $0 + "\n" }.joined()
    let result = RunResult(arguments: arguments, exitCode: raw.exitCode, stdout: raw.stdout, stderr: stderr, seconds: raw.seconds, timedOut: raw.timedOut)
    return MeasuredRun(result: result, peakKiB: kib)
}
