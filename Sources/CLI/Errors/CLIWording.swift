import HTTP
import Flow

/// The words a flow needs from the CLI (Flow/Errors/FlowWording.swift): the
/// option names its trace and notes mention, from the option table, and an
/// error's words and exit code from ErrorReport.swift.
struct CLIWording: FlowWording {
    /// Read from the table once per process.
    static let names = OptionNames(proxy: OptionTable.flag(\.proxyURL), header: OptionTable.shortFlag(\.headers),
                                   issuer: OptionTable.flag(\.issuer), jwks: OptionTable.flag(\.jwks), form: OptionTable.flag(\.form),
                                   method: OptionTable.flag(\.method), dpopFor: OptionTable.flag(\.dpopFor))

    var names: OptionNames { Self.names }

    func message(_ error: FlowError) -> String {
        ErrorReport(error).message
    }

    func recordFailure(_ error: FlowError) -> (exit: Int32, message: String) {
        let report = ErrorReport(error)
        return (report.exitCode.rawValue, report.message + (report.location.map { " (\($0))" } ?? ""))
    }
}
