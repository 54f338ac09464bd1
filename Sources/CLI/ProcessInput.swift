import Core
import HTTP

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's own inputs, read as the bytes they are. `CommandLine.arguments`
/// and `String(cString:)` repair invalid UTF-8 with U+FFFD, so a password
/// given in Latin-1 would silently become another password; here such an
/// argument, or an `AUTHCODE_*` variable, is a usage error (exit 2) instead.
/// Errors name the argument's position or the variable, never the value.
package enum ProcessInput {
    /// The arguments after the program name.
    package static func arguments() throws(UsageError) -> [String] {
        var result: [String] = []
        for index in 1..<max(1, Int(CommandLine.argc)) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            guard let text = String(validatingCString: pointer) else {
                throw UsageError("argument \(index) is not UTF-8 text; authcode takes UTF-8 values only")
            }
            result.append(text)
        }
        return result
    }

    /// `environ` as a dictionary. A variable of ours (`AUTHCODE_…`) must be
    /// UTF-8; any other is repaired, since authcode only passes it through.
    package static func environment() throws(UsageError) -> [String: String] {
        var result: [String: String] = [:]
        #if canImport(Darwin)
        guard let entries = _NSGetEnviron()?.pointee else { return result }
        #else
        guard let entries = environ as UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? else { return result }
        #endif
        var index = 0
        while let entry = entries[index] {
            index += 1
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(entry).assumingMemoryBound(to: UInt8.self), count: strlen(entry))
            guard let equals = bytes.firstIndex(of: ASCII.equals) else { continue }
            let name = ASCII.string(bytes[..<equals])
            let value = bytes[(equals + 1)...]
            if name.hasPrefix("AUTHCODE_") {
                guard let text = String(validating: value, as: UTF8.self) else {
                    throw UsageError("\(name) is not UTF-8 text; authcode takes UTF-8 values only")
                }
                result[name] = text
            } else {
                result[name] = ASCII.string(value)
            }
        }
        return result
    }
}

extension ProcessInput {
    /// A process started with 0, 1 or 2 closed (`authcode >&-`) would get
    /// that number for its first socket, and the token would be "printed"
    /// into the connection. Each closed one is held by /dev/null opened the
    /// wrong way round (stdout read-only), so that writing the result fails
    /// with EBADF and is reported (exit 1) instead.
    static func reserveStandardDescriptors() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", descriptor == 0 ? O_WRONLY : O_RDONLY)
            if opened >= 0 && opened != descriptor {
                _ = dup2(opened, descriptor)
                close(opened)
            }
        }
    }
}

extension AuthCode {
    /// The process's arguments and environment, checked, then `run`.
    static func runProcess(transport: @escaping TransportFactory, versions: LibraryVersions) -> ExitCode {
        ProcessInput.reserveStandardDescriptors()
        let console = StandardConsole()
        let arguments: [String], environment: [String: String]
        do throws(UsageError) {
            arguments = try ProcessInput.arguments()
            environment = try ProcessInput.environment()
        } catch {
            let report = ErrorReport(.usage(error))
            console.writeErr(report.line + "\n")
            if let hint = report.hint { console.writeErr(hint + "\n") }
            return report.exitCode
        }
        return run(arguments: arguments, environment: environment, console: console, transport: transport, versions: versions)
    }
}
