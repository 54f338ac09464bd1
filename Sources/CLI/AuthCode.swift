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
            if verbosity != .quiet {
                for warning in options.warnings { console.writeErr(warning + "\n") }
                if options.insecure { console.writeErr("authcode: warning: --insecure: TLS certificates are not verified\n") }
            }
            let chosen: Transport
            if let transport { chosen = transport } else { chosen = try CurlTransport(settings: TokenFlow.transportSettings(options)) }
            let flow = TokenFlow(options: options, console: console, transport: chosen)
            redactor = flow.redactor
            let result = try flow.run()
            let output = try ResultPrinter.output(result, field: options.print)
            guard console.deliver(output) else { throw OutputFailure.failure(for: result) }
            return .success
        } catch {
            console.writeErr(redactor.line(for: error) + "\n")
            if let hint = error.hint, verbosity != .quiet {
                console.writeErr(redactor.finished(hint) + "\n")
            }
            return error.exitCode
        }
    }

    package static func processEnvironment() -> [String: String] {
        ProcessEnvironment.current()
    }

    package static func exit(_ code: ExitCode) -> Never {
        #if canImport(Glibc)
        Glibc.exit(code.rawValue)
        #else
        Darwin.exit(code.rawValue)
        #endif
    }
}
