import Flow

/// Everything the command line, the environment and config files gave,
/// filled through the option table's key paths (OptionTable.swift:
/// `\.flow.walk.maxHops`) and checked by OptionRules.swift, once, before
/// any network. What a flow reads is Flow's, one value per concern
/// (Flow/Settings/), each with its defaults as initial values (what `--help`
/// shows, typed once); what only the command line knows stays here.
package struct Options: Equatable, Sendable {
    /// Every slice a flow reads, handed to it as it is once checked.
    package var flow = FlowSettings()
    /// `--users`, `--parallel`, `--shard`: read by the batch runner only.
    package var batch = BatchSettings()
    /// What only the command line reads (CommandLineValues.swift).
    package var commandLine = CommandLineValues()
    /// Hints for stderr found while parsing (a secret typed on the command line).
    package var warnings: [String] = []

    package init() {}
}
