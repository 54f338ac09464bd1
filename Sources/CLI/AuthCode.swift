import Core
import HTTP
import OAuth
import Walk
import Flow

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The whole command as one function, SwiftFormat-style: `main.swift` only
/// wires it to the process, and tests call it directly.
package enum AuthCode {
    /// - Parameters:
    ///   - transport: makes each flow's transport; the executable passes
    ///     libcurl's (main.swift), so this layer never links it.
    ///   - stderrIsTerminal: whether the batch may draw its progress line;
    ///     the process's fd 2 unless a test says otherwise.
    package static func run(arguments: [String], environment: [String: String], console: Console = StandardConsole(),
                           reader: ValueReader = ValueReader(), transport: @escaping TransportFactory,
                           versions: LibraryVersions = LibraryVersions(), stderrIsTerminal: Bool = isatty(2) != 0) -> ExitCode {
        var redactor = Redactor()
        var verbosity = Verbosity.normal
        do throws(CLIError) {
            let command: ParsedCommand
            do {
                command = try ArgumentParser(environment: environment, reader: reader).parse(arguments)
            } catch {
                throw .usage(error)
            }
            let options: Options
            switch command {
            case .help:
                console.writeOut(Help.text)
                return .success
            case .version:
                console.writeOut(VersionText.text(versions))
                return .success
            case .completion(let shell):
                console.writeOut(CompletionScript.text(for: shell))
                return .success
            case .run(let parsed):
                options = parsed
            }
            let settings = options.flow
            verbosity = settings.output.verbosity
            TokenFlow.rememberSecrets(of: settings, in: redactor)
            if verbosity != .quiet {
                for warning in options.warnings { console.writeErr(warning + "\n") }
            }
            // -o: the file's temporary twin exists before any request; `-o -` is stdout, as in curl.
            let file: OutputFile?
            do {
                file = try options.commandLine.outputFile.flatMap { path throws(UsageError) in path == "-" ? nil : try OutputFile(path: path, base: console) }
            } catch {
                throw .usage(error)
            }
            defer { file?.discard() }
            let out: Console = file ?? console
            let execInfo = environment["KUBERNETES_EXEC_INFO"]
            let wording = CLIWording()
            if options.batch.input != nil {
                let printer = BatchPrinter(field: settings.output.print, execInfo: execInfo)
                let tally: BatchTally
                do {
                    tally = try BatchRunner(settings: settings, batch: options.batch, console: out, transport: transport, wording: wording,
                                            showProgress: stderrIsTerminal)
                        .run(printing: printer.printed)
                } catch {
                    throw .flow(error)
                }
                var code = ExitCode.success
                if tally.failed > 0 {
                    if verbosity != .quiet { out.writeErr(printer.summary(tally, outputName: out.outputName) + "\n") }
                    code = .batchFailed
                }
                if let file, let reason = file.commit() {
                    throw .unwritten(.batchResults(output: file.outputName, reason: reason))
                }
                return code
            }
            let result: FlowResult
            do {
                let flow = try TokenFlow(settings: settings, console: out, makeTransport: transport, wording: wording)
                redactor = flow.redactor
                result = try flow.run()
            } catch {
                throw .flow(error)
            }
            // --call: the resource's answer byte for byte, whatever its status.
            let bytes: [UInt8]
            if case .token(let token) = result, let call = token.call {
                bytes = call.body
            } else {
                do {
                    bytes = Array(try ResultPrinter.output(result, field: settings.output.print, execInfo: execInfo).utf8)
                } catch {
                    throw .unprintable(error)
                }
            }
            guard out.writeOut(bytes: bytes) else {
                throw .unwritten(.result(output: out.outputName, reason: file?.failure ?? "closed pipe or full disk", LostResult(result)))
            }
            if let file, let reason = file.commit() {
                throw .unwritten(.result(output: file.outputName, reason: reason, LostResult(result)))
            }
            if case .token(let token) = result, let call = token.call, call.isError {
                throw .flow(.resourceRefused(method: call.method, status: call.status, call.bearerError, at: call.place))
            }
            return .success
        } catch {
            let report = ErrorReport(error)
            console.writeErr(redactor.finished(report.markedLine) + "\n")
            if let hint = report.hint, verbosity != .quiet {
                console.writeErr(redactor.finished(hint) + "\n")
            }
            return report.exitCode
        }
    }

    /// The process's entry: SIGPIPE ignored, so a closed stdout is a write
    /// error we report (exit 1), not a silent death by signal (141).
    /// Arguments and environment are read as bytes and must be UTF-8
    /// (ProcessInput.swift).
    package static func main(transport: @escaping TransportFactory, versions: LibraryVersions) -> Never {
        signal(SIGPIPE, SIG_IGN)
        // Likewise a file size limit (ulimit -f) makes writing -o's file fail
        // with EFBIG, reported, rather than killing the process.
        signal(SIGXFSZ, SIG_IGN)
        exit(runProcess(transport: transport, versions: versions))
    }

    package static func exit(_ code: ExitCode) -> Never {
        #if canImport(Glibc)
        Glibc.exit(code.rawValue)
        #else
        Darwin.exit(code.rawValue)
        #endif
    }
}
