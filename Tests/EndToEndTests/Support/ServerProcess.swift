import Foundation

/// A fixture server child process: started with a stdin pipe this test process
/// keeps open (so `--watch-stdin` ends the server when the tests end), ready once
/// it prints `READY <url>` on stdout.
final class ServerProcess: @unchecked Sendable {
    let baseURL: String
    /// The `LISTEN <url>` lines printed before READY (`--extra-listen`), in order.
    let extraURLs: [String]
    /// Every stdout line printed before READY, in order (Fixtures/glewlwyd/start.py
    /// prints its issuers, clients and key paths there).
    let startupLines: [String]
    private let process: Process
    /// Held, never written: its write end closing (at our exit) is the server's signal to stop.
    private let stdinPipe: Pipe

    private init(baseURL: String, extraURLs: [String], startupLines: [String], process: Process, stdinPipe: Pipe) {
        self.baseURL = baseURL
        self.extraURLs = extraURLs
        self.startupLines = startupLines
        self.process = process
        self.stdinPipe = stdinPipe
    }

    static func start(name: String, executable: String, arguments: [String], timeout: Double) throws(HarnessError) -> ServerProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = Paths.packageRoot
        let stdinPipe = Pipe(), stdoutPipe = Pipe(), stderrPipe = Pipe()
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        let output = StartupOutput()
        do {
            try process.run()
        } catch {
            throw HarnessError("\(name): cannot start \(executable): \(error)")
        }
        // Both pipes are drained for the server's whole life so it never blocks writing.
        Thread.detachNewThread {
            let handle = stdoutPipe.fileHandleForReading
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { output.finish(); return }
                output.appendOut(chunk)
            }
        }
        Thread.detachNewThread {
            let handle = stderrPipe.fileHandleForReading
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return }
                output.appendErr(chunk)
            }
        }
        let waited = output.ready.wait(timeout: .now() + timeout)
        guard waited == .success, let url = output.readyURL else {
            if process.isRunning { process.terminate() }
            let why = waited == .timedOut ? "no READY line within \(Int(timeout)) s" : "it exited before READY"
            throw HarnessError("\(name) did not start (\(why)): \(executable) \(arguments.joined(separator: " "))\n"
                + "stdout: \(output.stdoutText)\nstderr: \(output.stderrTail)")
        }
        return ServerProcess(baseURL: url, extraURLs: output.listenURLs, startupLines: output.startupLines,
                             process: process, stdinPipe: stdinPipe)
    }
}

/// What a starting server printed, shared between the reader threads and the starter.
private final class StartupOutput: @unchecked Sendable {
    let ready = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()
    private var signalled = false
    private(set) var readyURL: String?
    /// `LISTEN <url>` lines seen before READY.
    private(set) var listenURLs: [String] = []
    /// Every line seen before READY.
    private(set) var startupLines: [String] = []

    func appendOut(_ chunk: Data) {
        lock.lock(); defer { lock.unlock() }
        out.append(chunk)
        guard readyURL == nil else { return }
        let lines = String(decoding: out, as: UTF8.self).split(separator: "\n")
        for (index, line) in lines.enumerated() where line.hasPrefix("READY ") {
            startupLines = lines[..<index].map(String.init)
            listenURLs = lines[..<index].filter { $0.hasPrefix("LISTEN ") }
                .map { $0.dropFirst("LISTEN ".count).trimmingCharacters(in: .whitespacesAndNewlines) }
            readyURL = line.dropFirst("READY ".count).trimmingCharacters(in: .whitespacesAndNewlines)
            signalOnce()
            return
        }
    }

    func appendErr(_ chunk: Data) {
        lock.lock(); defer { lock.unlock() }
        err.append(chunk)
        if err.count > 16_384 { err = err.suffix(8_192) }
    }

    /// stdout closed: the server is gone (or never printed READY).
    func finish() {
        lock.lock(); defer { lock.unlock() }
        signalOnce()
    }

    private func signalOnce() {
        guard !signalled else { return }
        signalled = true
        ready.signal()
    }

    var stdoutText: String {
        lock.lock(); defer { lock.unlock() }
        return String(decoding: out.prefix(2_000), as: UTF8.self)
    }

    var stderrTail: String {
        lock.lock(); defer { lock.unlock() }
        return String(decoding: err.suffix(4_000), as: UTF8.self)
    }
}
