import HTTP
import Flow

/// The words a flow needs from the CLI (Flow/Errors/FlowWording.swift): the
/// option names its trace and notes mention, from the option table, and an
/// error's words from ErrorReport.swift.
struct CLIWording: FlowWording {
    /// Read from the table once per process.
    static let names = OptionNames(proxy: OptionTable.flag(\.commandLine.proxyURL), header: OptionTable.shortFlag(\.flow.connection.headers),
                                   issuer: OptionTable.flag(\.flow.server.issuer), jwks: OptionTable.flag(\.flow.verification.jwks),
                                   form: OptionTable.flag(\.flow.walk.form), method: OptionTable.flag(\.flow.request.method),
                                   dpopFor: OptionTable.flag(\.flow.profile.dpopFor), idp: OptionTable.flag(\.flow.walk.idp),
                                   cacert: OptionTable.flag(\.flow.connection.transport.cacert),
                                   insecure: OptionTable.flag(\.flow.connection.transport.insecure),
                                   passkey: OptionTable.flag(\.flow.walk.passkeyFile),
                                   totpSecret: OptionTable.flag(\.flow.walk.totpSecret))

    var names: OptionNames { Self.names }

    func message(_ error: FlowError) -> String {
        ErrorReport(error).message
    }
}
