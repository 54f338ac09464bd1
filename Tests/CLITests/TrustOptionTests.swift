import Testing
@testable import HTTP
@testable import Flow
@testable import CLI

/// The run's trust source comes from `--cacert` and the environment the
/// parser was given (CLI/OptionRules.swift), in the transport's settings.
struct TrustOptionTests {
    @Test func theEnvironmentNamesTheStore() throws {
        let options = try CLI.options(CLI.arguments(), environment: ["SSL_CERT_DIR": "/certs", "HOME": "/root"])
        #expect(options.flow.connection.transport.certificateVariables == ["SSL_CERT_DIR": "/certs"])
        #expect(options.flow.connection.transport.trust == .environment(file: nil, directory: "/certs"))
    }

    @Test func cacertWins() throws {
        let options = try CLI.options(CLI.arguments(["--cacert", "/dev/null"]), environment: ["SSL_CERT_FILE": "/bundle.pem"])
        #expect(options.flow.connection.transport.trust == .cacert("/dev/null"))
    }

    @Test func noneGivenIsTheSystemStore() throws {
        #expect(try CLI.options(CLI.arguments()).flow.connection.transport.trust == .system)
    }
}
