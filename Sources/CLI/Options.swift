import Flow

/// Everything the command line, the environment and config files gave,
/// filled through the option table's key paths (OptionTable.swift) and
/// checked by OptionRules.swift, once, before any network. The run's
/// settings are Flow's, one value per concern (Flow/Settings/), each with
/// its defaults as initial values (what `--help` shows, typed once); what
/// only the command line knows stays here: its own values
/// (`commandLine`) and hints for stderr.
package struct Options: Equatable, Sendable {
    package var server = ServerSettings()
    package var client = ClientSettings()
    package var request = RequestSettings()
    package var walk = WalkSettings()
    package var profile = ProfileSettings()
    package var verification = VerificationSettings()
    package var cache = CacheSettings()
    package var connection = ConnectionSettings()
    package var output = OutputSettings()
    package var batch = BatchSettings()

    /// What only the command line reads (CommandLineValues.swift).
    package var commandLine = CommandLineValues()
    /// Hints for stderr found while parsing (a secret typed on the command line).
    package var warnings: [String] = []

    package init() {}

    /// What one flow reads, slice by slice.
    package var flow: FlowSettings {
        FlowSettings(server: server, client: client, request: request, walk: walk, profile: profile, verification: verification,
                     cache: cache, connection: connection, output: output)
    }
}
