import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What one run of the binary did.
struct RunResult: Sendable, CustomStringConvertible {
    let arguments: [String]
    let exitCode: Int32
    let stdout: String
    let stderr: String
    let seconds: Double
    let timedOut: Bool

    /// The `authcode: error: …` line, if any.
    var errorLine: String? {
        stderr.split(separator: "\n").first { $0.hasPrefix("authcode: error: ") }.map(String.init)
    }

    var description: String {
        "authcode \(arguments.joined(separator: " "))\n→ exit \(exitCode) in \(String(format: "%.2f", seconds)) s"
            + "\n--- stdout ---\n\(stdout.prefix(2_000))\n--- stderr ---\n\(stderr.prefix(4_000))"
    }
}

/// Runs `authcode` as a user would: a clean environment (PATH, HOME and `env`
/// only), stdin from `stdin` or /dev/null, both pipes drained concurrently, killed
/// (and the test failed) after `timeout` seconds so a hang never blocks the suite.
/// `closedStdout`: stdout is a pipe nobody reads (its read end closed before
/// the start), as after `authcode … | head -c0`; stdout is then "".
func run(_ arguments: [String], env: [String: String] = [:], stdin: String? = nil, timeout: Double = 30,
         closedStdout: Bool = false, executable: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) async throws -> RunResult {
    let binary: String
    switch Paths.binary {
    case .success(let path): binary = executable ?? path
    case .failure(let error): throw error
    }
    await RunGate.shared.enter()
    defer { Task { await RunGate.shared.leave() } }

    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    let inherited = ProcessInfo.processInfo.environment
    var environment = ["PATH": inherited["PATH"] ?? "/usr/bin:/bin", "HOME": inherited["HOME"] ?? "/tmp"]
    environment.merge(env) { _, new in new }
    process.environment = environment
    let stdoutPipe = Pipe(), stderrPipe = Pipe()
    if closedStdout {
        // The read end is closed before any child starts, so no reader is left.
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw HarnessError("pipe failed") }
        close(ends[0])
        process.standardOutput = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        try stdoutPipe.fileHandleForWriting.close()
    } else {
        process.standardOutput = stdoutPipe
    }
    process.standardError = stderrPipe
    let stdinPipe: Pipe?
    let nullInput = stdin == nil ? FileHandle(forReadingAtPath: "/dev/null") : nil
    if stdin != nil {
        stdinPipe = Pipe()
        process.standardInput = stdinPipe
    } else {
        stdinPipe = nil
        process.standardInput = nullInput
    }

    let state = RunState()
    let started = DispatchTime.now()
    let seconds: Double = try await withCheckedThrowingContinuation { continuation in
        process.terminationHandler = { _ in
            state.finished()
            continuation.resume(returning: Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9)
        }
        do {
            try process.run()
        } catch {
            continuation.resume(throwing: HarnessError("cannot start \(binary): \(error)"))
            return
        }
        let pid = process.processIdentifier
        state.drain(stdoutPipe, isStdout: true)
        state.drain(stderrPipe, isStdout: false)
        if let stdinPipe, let text = stdin {
            Thread.detachNewThread {
                let handle = stdinPipe.fileHandleForWriting
                try? handle.write(contentsOf: Data(text.utf8))
                try? handle.close()
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            if state.markTimedOutIfRunning() { kill(pid, SIGKILL) }
        }
    }
    let (out, err) = await state.output()
    // Closed now rather than whenever Foundation lets the Process go: the
    // test process otherwise holds three descriptors per run it made, and
    // Foundation's Process.run overflows a buffer when it lists more than
    // about 1,350 open descriptors (/proc/self/fd) and crashes the suite.
    try? stdoutPipe.fileHandleForReading.close()
    try? stderrPipe.fileHandleForReading.close()
    try? stdinPipe?.fileHandleForReading.close()
    try? nullInput?.close()
    let result = RunResult(arguments: arguments, exitCode: process.terminationStatus,
                           stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self),
                           seconds: seconds, timedOut: state.timedOut)
    if result.timedOut {
        Issue.record("authcode did not finish within \(timeout) s and was killed\n\(result)", sourceLocation: sourceLocation)
    }
    return result
}

/// Output buffers and the timeout flag of one run, shared with the reader threads.
private final class RunState: @unchecked Sendable {
    private let lock = NSLock()
    private let group = DispatchGroup()
    private var done = false
    private var killed = false
    private var out = Data()
    private var err = Data()

    /// Blocking reads run on threads of their own, never on GCD's small pool
    /// (2 workers on 2 cores: blocked readers there delay every timer).
    func drain(_ pipe: Pipe, isStdout: Bool) {
        group.enter()
        Thread.detachNewThread {
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            self.lock.lock()
            if isStdout { self.out = data } else { self.err = data }
            self.lock.unlock()
            self.group.leave()
        }
    }

    func finished() {
        lock.lock(); done = true; lock.unlock()
    }

    /// True when the process was still running at the deadline (the caller kills it).
    func markTimedOutIfRunning() -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard !done else { return false }
        killed = true
        return true
    }

    var timedOut: Bool {
        lock.lock(); defer { lock.unlock() }
        return killed
    }

    func output() async -> (Data, Data) {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            group.notify(queue: .global()) { continuation.resume() }
        }
        return snapshot()
    }

    private func snapshot() -> (Data, Data) {
        lock.lock(); defer { lock.unlock() }
        return (out, err)
    }
}

/// At most a few binaries at once: the machine has 2 cores, and a run's
/// `--timeout` should be spent by authcode, not in a queue.
actor RunGate {
    static let shared = RunGate(limit: 4)
    private var available: Int
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) { available = limit }

    func enter() async {
        if available > 0 { available -= 1; return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func leave() {
        if waiters.isEmpty { available += 1 } else { waiters.removeFirst().resume() }
    }
}
