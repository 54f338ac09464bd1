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
    package static func run(arguments: [String], environment: [String: String], console: Console = StandardConsole(),
                           reader: ValueReader = ValueReader(), transport: Transport? = nil) -> ExitCode {
        var redactor = Redactor()
        var verbosity = Verbosity.normal
        do throws(Failure) {
            let command = try ArgumentParser(environment: environment, reader: reader).parse(arguments)
            let options: Options
            switch command {
            case .help:
                console.writeOut(Help.text)
                return .success
            case .version:
                console.writeOut("authcode \(Version.current)\n")
                return .success
            case .run(let parsed):
                options = parsed
            }
            verbosity = options.verbosity
            TokenFlow.rememberSecrets(of: options, in: redactor)
            if verbosity != .quiet {
                for warning in options.warnings { console.writeErr(warning + "\n") }
            }
            let execInfo = environment["KUBERNETES_EXEC_INFO"]
            // A batch's flows share TLS sessions and DNS answers, never
            // connections or cookies (HTTP/CurlShare.swift); one flow needs no share.
            let share = options.users != nil && transport == nil ? try CurlShare() : nil
            let makeTransport = { () throws(Failure) -> Transport in
                if let transport { return transport }
                return try CurlTransport(settings: TokenFlow.transportSettings(options), share: share)
            }
            if options.users != nil {
                return try BatchRunner(options: options, console: console, makeTransport: makeTransport,
                                       format: { (result: FlowResult) throws(Failure) -> String in
                                           try ResultPrinter.output(result, field: options.print, execInfo: execInfo)
                                       },
                                       showProgress: isatty(2) != 0).run()
            }
            let flow = TokenFlow(options: options, console: console, transport: try makeTransport())
            redactor = flow.redactor
            let result = try flow.run()
            let text = try ResultPrinter.output(result, field: options.print, execInfo: execInfo)
            guard console.writeOut(text) else {
                throw Failure(.outputFailed, "could not write the result to stdout (closed pipe or full disk); " + Self.spent(result))
            }
            return .success
        } catch {
            console.writeErr(redactor.line(for: error) + "\n")
            if let hint = error.hint, verbosity != .quiet {
                console.writeErr(redactor.finished(hint) + "\n")
            }
            return error.exitCode
        }
    }

    /// What the lost output had cost, for the exit-1 line.
    static func spent(_ result: FlowResult) -> String {
        switch result {
        case .code: return "the code was not redeemed"
        case .token(let token) where token.source == .cache: return "the token came from the cache and is still there"
        case .token(let token) where token.source == .refresh: return "a refresh token was redeemed"
        case .token: return "the code was redeemed and its token is lost"
        case .forgotten: return "nothing was minted"
        }
    }

    /// The process's entry: SIGPIPE ignored, so a closed stdout is a write
    /// error we report (exit 1), not a silent death by signal (141).
    /// Arguments and environment are read as bytes and must be UTF-8
    /// (ProcessInput.swift).
    package static func main() -> Never {
        signal(SIGPIPE, SIG_IGN)
        exit(runProcess())
    }

    package static func exit(_ code: ExitCode) -> Never {
        #if canImport(Glibc)
        Glibc.exit(code.rawValue)
        #else
        Darwin.exit(code.rawValue)
        #endif
    }
}
