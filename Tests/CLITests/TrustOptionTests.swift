import Testing
@testable import HTTP
@testable import Flow
@testable import CLI

/// The run's trust source comes from `--cacert` and the environment the
/// parser was given (CLI/OptionRules.swift), and reaches the transport.
struct TrustOptionTests {
    @Test func theEnvironmentNamesTheStore() throws {
        let options = try CLI.options(CLI.arguments(), environment: ["SSL_CERT_DIR": "/certs"])
        #expect(options.trust == .environment(file: nil, directory: "/certs"))
        #expect(TokenFlow.transportSettings(options).trust == .environment(file: nil, directory: "/certs"))
    }

    @Test func cacertWins() throws {
        let options = try CLI.options(CLI.arguments(["--cacert", "/dev/null"]), environment: ["SSL_CERT_FILE": "/bundle.pem"])
        #expect(TokenFlow.transportSettings(options).trust == .cacert("/dev/null"))
    }

    @Test func noneGivenIsTheSystemStore() throws {
        #expect(TokenFlow.transportSettings(try CLI.options(CLI.arguments())).trust == .system)
    }
}
