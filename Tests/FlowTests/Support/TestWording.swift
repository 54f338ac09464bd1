import TestSupport
@testable import HTTP
@testable import Flow

/// The CLI's words stood in for (CLI/Errors/CLIWording.swift): the real
/// option names, an error by its value. The CLI's own words for each error
/// are its tests' (Tests/CLITests/ErrorReportTests.swift).
struct TestWording: FlowWording {
    var names: OptionNames { .standard }

    func message(_ error: FlowError) -> String {
        "\(error)"
    }
}
