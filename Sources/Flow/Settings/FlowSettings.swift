import HTTP

/// One flow's settings, validated, one immutable value per concern. The
/// CLI builds them: its option table fills each slice through key paths
/// (`\.flow.walk.maxHops`, CLI/OptionTable.swift), whose initial values here are
/// the defaults `--help` shows (typed once), and its rules check them
/// (CLI/OptionRules.swift). Every component takes only the slices it
/// reads (ARCHITECTURE.md, "Settings"); the flow and the batch runner, which
/// build those components, hold all of them.
package struct FlowSettings: Equatable, Sendable {
    package var server = ServerSettings()
    package var client = ClientSettings()
    package var request = RequestSettings()
    package var walk = WalkSettings()
    package var profile = ProfileSettings()
    package var verification = VerificationSettings()
    package var cache = CacheSettings()
    package var connection = ConnectionSettings()
    package var output = OutputSettings()
    package var call = CallSettings()

    package init() {}
}
